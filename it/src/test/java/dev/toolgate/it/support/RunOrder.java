package dev.toolgate.it.support;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;

import java.util.Comparator;

/**
 * The order the suites start in (junit-platform.properties), which is lane 1's order: lane 1 runs its suites one after
 * another on the main thread ({@link Lane}). First what needs neither the Micro suites' gateway nor Keycloak, while both
 * start in the background as the run begins ({@link TestStack.EarlyMicro}, {@link Keycloak.Early}) — but not the
 * deployment suites' servers, which would add their boots to the run's busiest minute; then the {@link MicroSuite}s;
 * then those deployment suites that sign nobody in; last the suites that sign people in ({@link SignsPeopleIn}), by when
 * Keycloak has long been up. Within each group by name. An {@link Order} comes before all that: SecretsScanIT's puts it
 * last.
 */
public final class RunOrder implements ClassOrderer {

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator.comparingInt(RunOrder::order).thenComparingInt(RunOrder::group)
                .thenComparing(suite -> suite.getTestClass().getSimpleName()));
    }

    private static int order(ClassDescriptor suite) {
        return suite.findAnnotation(Order.class).map(Order::value).orElse(Order.DEFAULT);
    }

    private static int group(ClassDescriptor suite) {
        Class<?> type = suite.getTestClass();
        if (type.isAnnotationPresent(SignsPeopleIn.class)) {
            return 3;
        }
        if (MicroSuite.class.isAssignableFrom(type)) {
            return 1;
        }
        return type.getPackageName().endsWith(".deployment") ? 2 : 0;
    }
}
