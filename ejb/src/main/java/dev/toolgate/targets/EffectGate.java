package dev.toolgate.targets;

/**
 * Asked right before each request that can create the effect: an attempt can outlive its lease, and one that lost it
 * must stop without sending, or its request could follow a newer attempt's.
 */
public interface EffectGate {

    sealed interface Passage {
    }

    record Send() implements Passage {
    }

    /** This attempt may no longer send ({@code errorCode}: e.g. {@code lease_lost}): send nothing. */
    record Stop(String errorCode) implements Passage {
    }

    Passage beforeEffect();

    /** True once a request that can create the effect was permitted: from then on a failure is an unknown outcome. */
    boolean effectMayHaveLeft();

    static EffectGate unguarded() {
        return new EffectGate() {
            private boolean permitted;

            @Override
            public Passage beforeEffect() {
                permitted = true;
                return new Send();
            }

            @Override
            public boolean effectMayHaveLeft() {
                return permitted;
            }
        };
    }
}
