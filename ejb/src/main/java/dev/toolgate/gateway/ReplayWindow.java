package dev.toolgate.gateway;

import dev.toolgate.journal.JournalSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;

/**
 * How long a finished operation's or process's key is kept, and so how long a retry with it is answered from the record
 * instead of running again: the journal's retention ({@code toolgate.retention-days}), which every record an agent reads
 * shows as {@code expires_at} (an MCP task as its {@code ttl}). It is all the doors need of the journal's settings.
 */
@ApplicationScoped
public class ReplayWindow {

    private final JournalSettings settings;

    ReplayWindow() { // the container's proxy
        this(null);
    }

    @Inject
    public ReplayWindow(JournalSettings settings) {
        this.settings = settings;
    }

    public Duration length() {
        return settings.retention();
    }
}
