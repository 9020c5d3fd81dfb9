package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

/** Nothing from outside becomes markup ({@link Html}), and waiting times read as people say them. */
class HtmlTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void escapesEveryCharacterThatCouldOpenMarkupInText() {
        assertEquals("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;",
                new Html().text("<script>alert('x')</script> & \"q\"").toString());
    }

    @Test
    void escapesAttributeValuesSoTheyCannotCloseTheirQuotes() {
        assertEquals("<input type=\"hidden\" name=\"key\" value=\"a&quot; onfocus=&quot;x&#39;&gt;&lt;b\">",
                new Html().hidden("key", "a\" onfocus=\"x'><b").toString());
        assertEquals("<a href=\"/console/search?trace=&quot;&gt;\">&lt;b&gt;</a>", new Html().link("/console/search?trace=\">", "<b>").toString());
    }

    @Test
    void escapesAnElementsValueButNotItsTag() {
        assertEquals("<td class=\"number\">&lt;1&gt;</td>", new Html().element("td class=\"number\"", "<1>").toString());
    }

    @Test
    void writesNothingForAnAbsentValue() {
        assertEquals("", new Html().text(null).toString());
    }

    @Test
    void leavesOtherCharactersAsTheyAre() {
        assertEquals("Счёт № 5 — 100 €", Html.escape("Счёт № 5 — 100 €"));
    }

    @Test
    void writesAMomentReadableAndExact() {
        assertEquals("<time datetime=\"2026-12-01T09:30:05.123Z\">2026-12-01 09:30:05 UTC</time>",
                new Html().time(Instant.parse("2026-12-01T09:30:05.123Z")).toString());
        assertEquals("—", new Html().time(null).toString());
    }

    @Test
    void encodesQueryValues() {
        assertEquals("a%7Cb+c%26d%3De", Html.query("a|b c&d=e"));
        assertEquals("", Html.query(null));
    }

    @Test
    void agesUnderAMinuteInSeconds() {
        assertEquals("0 s", Html.age(NOW, NOW));
        assertEquals("59 s", Html.age(NOW.minusSeconds(59), NOW));
    }

    @Test
    void agesUnderAnHourInMinutes() {
        assertEquals("1 min", Html.age(NOW.minusSeconds(60), NOW));
        assertEquals("59 min", Html.age(NOW.minusSeconds(3599), NOW));
    }

    @Test
    void agesUnderTwoDaysInHoursAndMinutes() {
        assertEquals("1 h 0 min", Html.age(NOW.minus(Duration.ofHours(1)), NOW));
        assertEquals("2 h 5 min", Html.age(NOW.minus(Duration.ofMinutes(125)), NOW));
        assertEquals("47 h 59 min", Html.age(NOW.minus(Duration.ofHours(48)).plusSeconds(1), NOW));
    }

    @Test
    void agesFromTwoDaysInDaysAndHours() {
        assertEquals("2 d 0 h", Html.age(NOW.minus(Duration.ofHours(48)), NOW));
        assertEquals("4 d 1 h", Html.age(NOW.minus(Duration.ofHours(97)), NOW));
    }

    @Test
    void agesAMomentInTheFutureAsNoneAndAnAbsentOneAsADash() {
        assertEquals("0 s", Html.age(NOW.plusSeconds(30), NOW), "another instance's clock a little ahead");
        assertEquals("—", Html.age(null, NOW));
    }
}
