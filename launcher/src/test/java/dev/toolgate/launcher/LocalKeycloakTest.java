package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

class LocalKeycloakTest {

    @Test
    void aNamedJavaThatIsNotThereIsNoneAndNoOtherIsTakenBehindTheUsersBack() throws Exception {
        String before = System.getProperty("toolgate.keycloak.java-home");
        System.setProperty("toolgate.keycloak.java-home", "/nonexistent/jdk-25");
        try {
            List<Path> tried = new ArrayList<>();
            assertEquals(Optional.empty(), LocalKeycloak.java(tried));
            assertEquals(List.of(Path.of("/nonexistent/jdk-25")), tried, "what the run says it tried");
        } finally {
            if (before == null) {
                System.clearProperty("toolgate.keycloak.java-home");
            } else {
                System.setProperty("toolgate.keycloak.java-home", before);
            }
        }
    }

    @Test
    void theDemoRealmHasOnePersonPerConsoleRoleInTenantDemoAndThisRunsSecret() throws Exception {
        Map<String, String> passwords = new LinkedHashMap<>(Map.of("approver", "pw-a", "operator", "pw-o", "auditor", "pw-u"));
        JsonObject realm = Json.createReader(new StringReader(LocalKeycloak.realm("secret-1", passwords))).readObject();

        assertEquals("secret-1", realm.getJsonArray("clients").getJsonObject(0).getString("secret"));
        assertEquals(3, realm.getJsonArray("users").size());
        for (JsonObject user : realm.getJsonArray("users").getValuesAs(JsonObject.class)) {
            String name = user.getString("username");
            assertEquals("demo", user.getJsonObject("attributes").getJsonArray("tenant").getString(0), name);
            assertEquals("/" + LocalKeycloak.PEOPLE.get(name), user.getJsonArray("groups").getString(0), name);
            assertEquals(passwords.get(name), user.getJsonArray("credentials").getJsonObject(0).getString("value"), name);
        }
        assertTrue(realm.getJsonArray("clients").getJsonObject(0).getJsonArray("redirectUris").toString().contains("http://127.0.0.1/console/*"),
                "any port on the loopback address");
    }
}
