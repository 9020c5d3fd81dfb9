package dev.toolgate.gateway.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Random;

class OperationJsonTest {

    @Test
    void writesEveryInstantAsInstantToStringDoes() {
        Random random = new Random(7);
        long first = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond() - 86_400L * 400;
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond() + 86_400L * 400;
        for (int i = 0; i < 200_000; i++) {
            long second = first + Math.floorMod(random.nextLong(), last - first);
            int nanos = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000; // PostgreSQL's microseconds
                default -> random.nextInt(1_000_000_000);
            };
            Instant at = Instant.ofEpochSecond(second, nanos);
            assertEquals(at.toString(), OperationJson.instant(at));
        }
    }

    @Test
    void writesTheJournalsEdgesAndTheEpochAsInstantToStringDoes() {
        for (String text : new String[] {"0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "1970-01-01T00:00:00Z",
                "1969-12-31T23:59:59.000001Z", "2026-12-06T07:02:06.100Z", "2024-02-29T12:00:00.000000001Z"}) {
            Instant at = Instant.parse(text);
            assertEquals(at.toString(), OperationJson.instant(at), text);
        }
    }
}
