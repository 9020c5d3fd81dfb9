package dev.toolgate.canonical;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once: every static {@code Json.createXxx()} call runs a ServiceLoader scan
 * over the application's jars, on the path of every request.
 */
public final class Jsons {

    public static final JsonProvider JSON = JsonProvider.provider();

    private Jsons() {
    }
}
