package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once. Every {@code JSON.createXxx()} call runs a ServiceLoader scan
 * over the application's jars; measured under load that scan was a quarter of the gateway's CPU.
 */
public final class Jsons {

    public static final JsonProvider JSON = JsonProvider.provider();

    private Jsons() {
    }
}
