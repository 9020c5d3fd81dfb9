package dev.toolgate.gateway.notifications;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.gateway.edge.InputEdge;
import dev.toolgate.gateway.edge.InputRefused;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.edge.RateLimiter;
import dev.toolgate.gateway.edge.ServletDoor;
import dev.toolgate.notification.Notice;
import dev.toolgate.notification.NoticeSettings;
import dev.toolgate.notification.Notices;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A target's notification ({@code POST /notifications/<target>[/<tenant>]}), answered before anything is looked up: a
 * target that waits long sends again. Checked in order, each refusal counted, none stored: source network (403), media
 * type (415), size (413), a form's text by the edge's rules (400, 422), Bitrix24's token in constant time (403), shape
 * (400), rate (429), queue (503). {@link Notices} then looks the operation up by key; the notification settles nothing
 * (docs/notifications.md).
 */
@WebServlet(urlPatterns = "/notifications/*")
public class NotificationDoor extends ServletDoor {

    private static final long serialVersionUID = 1L;
    /** A notification is a few kilobytes; YooKassa's carries the whole payment object. */
    static final int MAX_BODY = 64 * 1024;
    private static final Duration BUSY_RETRY = Duration.ofSeconds(5);
    private static final double LOGGED_REFUSALS_PER_SECOND = 1;

    @Inject
    transient NoticeSettings settings;
    @Inject
    transient Notices notices;
    @Inject
    transient RateLimiter limits;

    public NotificationDoor() {
        super("POST");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String[] path = segments(request.getPathInfo());
        if (path == null) {
            problem(response, ProblemType.NOT_FOUND, "notifications come to /notifications/{target} or /notifications/{target}/{tenant}");
            return;
        }
        String target = path[0];
        String tenant = path.length > 1 ? path[1] : null;
        Optional<NoticeSettings.Door> door = settings.door(target);
        if (door.isEmpty()) {
            problem(response, ProblemType.NOTIFICATIONS_NOT_TAKEN, "1c".equals(target)
                    ? "1C announces nothing by itself; its unknown outcomes are looked up by the reconcile job"
                    : "this gateway takes notifications from yookassa and bitrix24 when they are configured");
            return;
        }
        if (!door.get().sources().admits(request.getRemoteAddr())) {
            refuse(response, target, "refused_source", ProblemType.NOTIFICATION_SOURCE_REFUSED,
                    "notifications from " + target + " are taken only from its configured networks");
            return;
        }
        Announcement announced;
        try {
            announced = read(target, request, door.get());
        } catch (UnsupportedType e) {
            refuse(response, target, "malformed", ProblemType.UNSUPPORTED_MEDIA_TYPE, e.getMessage());
            return;
        } catch (InputRefused e) { // a form's field, by the rules the edge holds every form to: named, never quoted
            refuse(response, target, "malformed", e.kind() == InputRefused.Kind.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED
                    : ProblemType.INVALID_REQUEST, e.getMessage());
            return;
        }
        if (announced instanceof Announcement.TooLarge) {
            response.setHeader("Connection", "close"); // the unread rest of the body must not be taken for a request
            refuse(response, target, "malformed", ProblemType.PAYLOAD_TOO_LARGE, "a " + target + " notification is at most "
                    + MAX_BODY + " bytes");
            return;
        }
        if (announced instanceof Announcement.Forged) {
            refuse(response, target, "refused_token", ProblemType.NOTIFICATION_SOURCE_REFUSED,
                    "the notification's application token is not the one configured for " + target);
            return;
        }
        if (announced instanceof Announcement.Malformed malformed) {
            refuse(response, target, "malformed", ProblemType.INVALID_REQUEST, "not a " + target + " notification: " + malformed.why());
            return;
        }
        Duration wait = limits.acquire(" notifications " + target, door.get().perSecond(), door.get().burst());
        if (!wait.isZero()) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
            refuse(response, target, "rate_limited", ProblemType.RATE_LIMITED, "too many notifications from " + target + "; send it again later");
            return;
        }
        if (announced instanceof Announcement.Ignored) {
            notices.refusedAtDoor(target, "ignored_event", false);
            answer(response, JSON.createObjectBuilder().add("status", "ignored").build().toString());
            return;
        }
        Announcement.Change change = (Announcement.Change) announced;
        Notice notice = Notice.received(target, change.event(), change.objectKind(), change.objectId(),
                change.keyHint() != null && change.keyHint().length() <= 512 ? change.keyHint() : null, tenant);
        if (!notices.accept(notice)) {
            response.setHeader("Retry-After", Long.toString(BUSY_RETRY.toSeconds()));
            problem(response, ProblemType.NOTIFICATIONS_BUSY, "the look-ups of earlier notifications are still queued; send it again later");
            return;
        }
        answer(response, JSON.createObjectBuilder().add("status", "accepted").add("receipt", notice.receipt()).build().toString());
    }

    static String[] segments(String pathInfo) {
        if (pathInfo == null || pathInfo.length() < 2) {
            return null;
        }
        String[] parts = pathInfo.substring(1).split("/", -1);
        if (parts.length > 2 || !parts[0].matches("[a-z0-9][a-z0-9_-]{0,31}")
                || parts.length == 2 && !IdempotencyKeyHeader.isWellFormed(parts[1])) {
            return null;
        }
        return parts;
    }

    /**
     * The body, read here no further than {@link #MAX_BODY}, a form by {@link InputEdge#form}, not by the container;
     * Bitrix24's token, from the body only, is checked before anything else is read, so a stranger learns nothing of
     * the format. The media type is compared whole: {@code application/json-patch+json} is not JSON to this door.
     */
    private static Announcement read(String target, HttpServletRequest request, NoticeSettings.Door door) throws IOException, UnsupportedType {
        boolean form = "bitrix24".equals(target);
        String type = request.getContentType() == null ? ""
                : request.getContentType().split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
        if (form && !type.equals("application/x-www-form-urlencoded")) {
            throw new UnsupportedType("Bitrix24 sends its events form-encoded (application/x-www-form-urlencoded)");
        }
        if (!form && !type.equals("application/json")) {
            throw new UnsupportedType("YooKassa sends its notifications as application/json");
        }
        byte[] body = request.getContentLengthLong() > MAX_BODY ? null : body(request.getInputStream());
        if (body == null) {
            return new Announcement.TooLarge();
        }
        if (!form) {
            return YooKassaNotifications.read(body);
        }
        Map<String, String[]> fields = InputEdge.form(body);
        String[] token = fields.get(Bitrix24Events.TOKEN);
        if (!door.tokenMatches(token != null && token.length == 1 ? token[0] : null)) {
            return new Announcement.Forged();
        }
        return Bitrix24Events.read(fields);
    }

    private static final class UnsupportedType extends Exception {
        private static final long serialVersionUID = 1L;

        UnsupportedType(String why) {
            super(why);
        }
    }

    private static byte[] body(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            if (out.size() + n > MAX_BODY) {
                return null;
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** Counted always; logged at most {@value #LOGGED_REFUSALS_PER_SECOND} a second per target, so a flood cannot fill the log. */
    private void refuse(HttpServletResponse response, String target, String reason, ProblemType type, String detail) throws IOException {
        boolean logged = limits.acquire(" notification refusals " + target, LOGGED_REFUSALS_PER_SECOND, 10).isZero();
        notices.refusedAtDoor(target, reason, logged);
        problem(response, type, detail);
    }

    private static void answer(HttpServletResponse response, String json) throws IOException {
        write(response, 200, "application/json", json);
    }
}
