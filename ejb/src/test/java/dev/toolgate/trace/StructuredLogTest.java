package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

class StructuredLogTest {

    private final List<LogRecord> written = new ArrayList<>();
    private final Logger logger = capturing();

    @Test
    void endsTheTextWithTheFieldsAndCarriesThemAsAMapParameter() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("operation_key", "acme:invoice.create:order-1:v1");
        fields.put("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736");

        StructuredLog.log(logger, Level.INFO, "operation captured", fields);

        LogRecord record = written.get(0);
        assertEquals("operation captured operation_key=acme:invoice.create:order-1:v1 trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
                record.getMessage());
        assertArrayEquals(new Object[] {fields}, record.getParameters()); // Payara's JSON formatter lifts these into fields
        assertEquals("dev.toolgate.test", record.getLoggerName());
    }

    @Test
    void quotesValuesAPipelineWouldOtherwiseSplit() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("detail", "look-up found no effect of attempt 1");
        fields.put("operation_key", "k=\"1\"\\x");
        fields.put("absent", null);

        assertEquals(" detail=\"look-up found no effect of attempt 1\" operation_key=\"k=\\\"1\\\"\\\\x\"", StructuredLog.logfmt(fields));
    }

    @Test
    void quotesAnEmptyValueAndEveryKindOfWhitespace() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("empty", "");
        fields.put("tab", "a\tb");
        fields.put("newline", "a\nb");
        fields.put("vertical", "a\u000bb");
        fields.put("feed", "a\fb");
        fields.put("ret", "a\rb");
        fields.put("cyrillic", "счёт-48291");

        assertEquals(" empty=\"\" tab=\"a\tb\" newline=\"a\nb\" vertical=\"a\u000bb\" feed=\"a\fb\" ret=\"a\rb\" cyrillic=счёт-48291",
                StructuredLog.logfmt(fields));
    }

    @Test
    void keepsTheMapWhenABraceIsNoPatternArgument() {
        StructuredLog.log(logger, Level.INFO, "operation captured", Map.of("operation_key", "key-{x}{"));

        assertEquals("operation captured operation_key=key-{x}{", written.get(0).getMessage());
        assertArrayEquals(new Object[] {Map.of("operation_key", "key-{x}{")}, written.get(0).getParameters());
    }

    @Test
    void leavesTheMapOutWhenATextFormatterWouldReadTheMessageAsAPattern() {
        StructuredLog.log(logger, Level.INFO, "operation captured", Map.of("operation_key", "key-{0}"));

        assertEquals("operation captured operation_key=key-{0}", written.get(0).getMessage());
        assertNull(written.get(0).getParameters());
    }

    private Logger capturing() {
        Logger test = Logger.getLogger("dev.toolgate.test");
        test.setUseParentHandlers(false);
        for (Handler old : test.getHandlers()) {
            test.removeHandler(old);
        }
        test.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                written.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        return test;
    }
}
