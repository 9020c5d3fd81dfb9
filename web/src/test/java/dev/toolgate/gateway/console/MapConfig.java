package dev.toolgate.gateway.console;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * A MicroProfile Config over a map, converting as the specification's built-in converters do for the types the
 * console's settings read (String, Long, Boolean); an empty value is no value, as the specification says. Hand-rolled
 * so the web module's tests need no Config implementation.
 */
final class MapConfig implements Config {

    private final Map<String, String> values;

    MapConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** The console's settings as a deployment that says only {@code values} gets them. */
    static ConsoleSettings settings(Map<String, String> values) {
        return new ConsoleSettings(new MapConfig(values));
    }

    @Override
    public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
        String value = values.get(name);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        Object converted = type == Long.class ? Long.valueOf(value.strip())
                : type == Boolean.class ? Boolean.valueOf(value.strip())
                : type == String.class ? value : null;
        if (converted == null) {
            throw new IllegalArgumentException("no converter for " + type);
        }
        return Optional.of(type.cast(converted));
    }

    @Override
    public <T> T getValue(String name, Class<T> type) {
        return getOptionalValue(name, type).orElseThrow(() -> new NoSuchElementException(name));
    }

    @Override
    public ConfigValue getConfigValue(String name) {
        throw new UnsupportedOperationException("not read by the console");
    }

    @Override
    public Iterable<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return List.of();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> type) {
        return Optional.empty();
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException("nothing to unwrap");
    }
}
