package dev.toolgate.gateway.notifications;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Bitrix24 outbound event, form-encoded: {@code event=ONCRMDEALADD&data[FIELDS][ID]=394&auth[application_token]=…}
 * (the rest unread). Deal events only: deals are what our operations make. The token is the door's to check.
 */
final class Bitrix24Events {

    private static final Map<String, String> EVENTS = Map.of("ONCRMDEALADD", "deal", "ONCRMDEALUPDATE", "deal");
    private static final Pattern EVENT = Pattern.compile("[A-Z0-9_]{1,64}");
    private static final Pattern DEAL_ID = Pattern.compile("[1-9][0-9]{0,17}");
    static final String TOKEN = "auth[application_token]";

    private Bitrix24Events() {
    }

    static Announcement read(Map<String, String[]> form) {
        String event = single(form, "event");
        if (event == null || !EVENT.matcher(event).matches()) {
            return new Announcement.Malformed("\"event\" must name one Bitrix24 event, e.g. ONCRMDEALADD");
        }
        if (!EVENTS.containsKey(event)) {
            return new Announcement.Ignored(event);
        }
        String id = single(form, "data[FIELDS][ID]");
        if (id == null || !DEAL_ID.matcher(id).matches()) {
            return new Announcement.Malformed("\"data[FIELDS][ID]\" must be one deal id");
        }
        return new Announcement.Change(event, EVENTS.get(event), id, null);
    }

    /** A field sent exactly once; a repeated one is as good as none (which of them would a proxy have read?). */
    private static String single(Map<String, String[]> form, String name) {
        String[] values = form.get(name);
        return values != null && values.length == 1 ? values[0] : null;
    }
}
