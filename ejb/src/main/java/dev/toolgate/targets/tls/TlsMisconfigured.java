package dev.toolgate.targets.tls;

/** A TLS setting that cannot be used as given; the message names the setting and never its secret. */
public final class TlsMisconfigured extends IllegalArgumentException {

    public TlsMisconfigured(String setting, String problem) {
        super(setting + ": " + problem);
    }

    public TlsMisconfigured(String setting, String problem, Throwable cause) {
        super(setting + ": " + problem + " (" + cause.getClass().getSimpleName() + ")", cause);
    }
}
