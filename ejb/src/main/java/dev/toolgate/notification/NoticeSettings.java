package dev.toolgate.notification;

import jakarta.annotation.PostConstruct;
import dev.toolgate.targets.registry.TargetRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Which targets' notifications this gateway takes, and how each is told from a stranger (docs/notifications.md):
 * YooKassa's carry no signature, so only their source network is checked ({@link #YOOKASSA_PUBLISHED} by default);
 * Bitrix24's carry the outbound webhook's application token. 1C has no push of its own.
 */
@ApplicationScoped
public class NoticeSettings {

    /** The networks YooKassa sends HTTP notifications from, as its notification guide lists them. */
    static final String YOOKASSA_PUBLISHED = "185.71.76.0/27, 185.71.77.0/27, 77.75.153.0/25, 77.75.156.11, 77.75.156.35,"
            + " 77.75.154.128/25, 2a02:5180::/32";
    private static final Logger LOG = Logger.getLogger(NoticeSettings.class.getName());

    /** One target's door: source networks, token (null: none sent), and the rate above which a 429 asks for a later delivery. */
    public record Door(SourceNetworks sources, byte[] applicationToken, double perSecond, double burst) {

        /** Constant time: how much of a token matched must not show in how long the refusal took. */
        public boolean tokenMatches(String sent) {
            return applicationToken == null
                    || sent != null && MessageDigest.isEqual(applicationToken, sent.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Inject
    TargetRegistry targets;

    private final Map<String, Door> doors = new TreeMap<>();
    private Duration retryAfter;
    private int queue;

    @PostConstruct
    void read() {
        Config config = ConfigProvider.getConfig();
        retryAfter = Duration.ofSeconds(config.getOptionalValue("toolgate.notifications.retry-after-seconds", Long.class).orElse(2L));
        queue = config.getOptionalValue("toolgate.notifications.queue", Integer.class).orElse(1000);
        Optional<String> yooKassaSources = config.getOptionalValue("toolgate.target.yookassa.notifications.sources", String.class);
        if (config.getOptionalValue("toolgate.target.yookassa.notifications.enabled", Boolean.class).orElse(false)
                || yooKassaSources.isPresent()) {
            door(config, "yookassa", yooKassaSources.orElse(YOOKASSA_PUBLISHED), null);
        }
        config.getOptionalValue("toolgate.target.bitrix24.notifications.application-token", String.class).ifPresent(token ->
                door(config, "bitrix24", config.getOptionalValue("toolgate.target.bitrix24.notifications.sources", String.class).orElse(""),
                        token.getBytes(StandardCharsets.UTF_8)));
    }

    private void door(Config config, String target, String sources, byte[] token) {
        // Bitrix24's REST takes 2 requests a second: each event may cost one of them (whose deal is it?)
        double perSecond = rate(config, target, "per-second", "bitrix24".equals(target) ? 2 : 20);
        double burst = rate(config, target, "burst", "bitrix24".equals(target) ? 50 : 100);
        try {
            doors.put(target, new Door(SourceNetworks.parse(sources), token, perSecond, burst));
        } catch (IllegalArgumentException e) { // names the block, never a token
            LOG.severe("notifications from " + target + " are refused: toolgate.target." + target + ".notifications.sources: " + e.getMessage());
        }
    }

    public Optional<Door> door(String target) {
        return Optional.ofNullable(doors.get(target));
    }

    /**
     * How soon an agent whose operation is unknown may look again: the notice wait when the target announces its
     * objects here (its notification starts the look-up), else null and the agent is told the next look-up's time.
     */
    public Duration noticeWait(String target, String operation) {
        return doors.containsKey(target) && targets.announces(target, operation) ? retryAfter : null;
    }

    /** Created at start, so a malformed setting fails the deployment or is in the log before the first call. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    private static double rate(Config config, String target, String name, double fallback) {
        return config.getOptionalValue("toolgate.target." + target + ".notifications." + name, Double.class)
                .or(() -> config.getOptionalValue("toolgate.notifications." + name, Double.class)).orElse(fallback);
    }

    public int queue() {
        return queue;
    }
}
