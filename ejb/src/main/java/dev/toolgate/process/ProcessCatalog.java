package dev.toolgate.process;

import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.canonical.IJsonReader;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Every process type this gateway runs, read once at start-up: the shipped examples (unless
 * {@code toolgate.process.examples=false}) and {@code toolgate.process.declarations}. A declaration that cannot run is
 * refused with a SEVERE line, and so is submitting it; the other types are unaffected.
 */
@ApplicationScoped
public class ProcessCatalog {

    private static final Logger LOG = Logger.getLogger(ProcessCatalog.class.getName());
    static final String EXAMPLES = "META-INF/toolgate/processes.json";

    private final Map<String, ProcessType> types = new TreeMap<>();
    private final Map<String, String> refused = new TreeMap<>();
    /** Declarations recorded by processes, read: few (one per version of each type), so a bound is only a guard. */
    private final Map<String, ProcessType> recorded = new ConcurrentHashMap<>();
    private static final int MAX_RECORDED = 1_000;

    /** Built at start, so a refused declaration is in the log before the first call. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    @PostConstruct
    void build() {
        Config config = ConfigProvider.getConfig();
        if (config.getOptionalValue("toolgate.process.examples", Boolean.class).orElse(true)) {
            try (InputStream examples = ProcessCatalog.class.getClassLoader().getResourceAsStream(EXAMPLES)) {
                load(EXAMPLES, new String(examples.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException | NullPointerException e) {
                LOG.severe("the shipped process examples cannot be read from " + EXAMPLES + ": " + e.getClass().getName());
            }
        }
        for (String file : config.getOptionalValue("toolgate.process.declarations", String[].class).orElse(new String[0])) {
            if (file.isBlank()) {
                continue;
            }
            try {
                load(file, Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                LOG.severe("process declarations in " + file.strip() + " cannot be read: " + e.getClass().getName());
            }
        }
        LOG.info("process types: " + types.keySet() + (refused.isEmpty() ? "" : "; refused: " + refused.keySet()));
    }

    void load(String source, String document) {
        List<JsonValue> declarations = new ArrayList<>();
        try {
            JsonValue parsed = IJsonReader.read(document);
            if (parsed instanceof JsonArray array) {
                declarations.addAll(array);
            } else {
                declarations.add(parsed);
            }
        } catch (InvalidCommand e) {
            LOG.severe("process declarations in " + source + " are refused: not JSON (" + e.getMessage() + ")");
            return;
        }
        for (JsonValue declaration : declarations) {
            String name = declaration instanceof JsonObject object ? object.getString("process", "?") : "?";
            try {
                ProcessType type = ProcessDeclarations.declaration(declaration instanceof JsonObject object ? object
                        : JsonValue.EMPTY_JSON_OBJECT);
                if (types.containsKey(type.name())) {
                    LOG.warning("process '" + type.name() + "' is declared again in " + source + ": this declaration replaces the earlier");
                }
                types.put(type.name(), type);
                refused.remove(type.name());
            } catch (InvalidDeclaration | ClassCastException e) {
                String why = e instanceof InvalidDeclaration ? e.getMessage() : "a field has the wrong JSON type";
                refused.put(name, why);
                types.remove(name);
                LOG.severe("process declaration refused (" + source + "): " + why);
            }
        }
    }

    public ProcessType require(String name) {
        ProcessType type = types.get(name);
        if (type != null) {
            return type;
        }
        if (refused.containsKey(name)) {
            throw new InvalidCommand(InvalidCommand.Reason.UNKNOWN_PROCESS, "process type '" + name
                    + "' is misconfigured on this gateway and refused; its log says why");
        }
        throw new InvalidCommand(InvalidCommand.Reason.UNKNOWN_PROCESS, "unknown process type '" + name + "' (declared: "
                + types.keySet() + ")");
    }

    /** The type a process recorded when it started, by which it runs to the end; {@link InvalidDeclaration} if it no longer can. */
    public ProcessType recorded(JsonObject declaration) {
        String text = CanonicalJson.write(declaration);
        ProcessType type = recorded.get(text);
        if (type == null) {
            type = ProcessDeclarations.declaration(declaration);
            if (recorded.size() < MAX_RECORDED) {
                recorded.put(text, type);
            }
        }
        return type;
    }

    public List<ProcessType> types() {
        return List.copyOf(types.values());
    }
}
