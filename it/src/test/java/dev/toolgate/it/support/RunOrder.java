package dev.toolgate.it.support;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;

import java.util.Comparator;

/**
 * The order the suites start in (junit-platform.properties), which is lane 1's order: lane 1 runs its suites one after
 * another on the main thread ({@link Lane}). First the {@link MicroSuite}s, on the gateway that starts in the background
 * as the run begins ({@link TestStack.EarlyMicro}): lane 1 waits for it, and starts no other server, in the run's
 * busiest minute (the benchmark's quick run, the other lanes' first gateways); then what needs neither that gateway nor
 * Keycloak; then the deployment suites that sign nobody in; last the suites that sign people in ({@link SignsPeopleIn}),
 * by when Keycloak (started with ConsoleIT's gateway, minutes ahead of it) has long been up. Within each group by name.
 * An {@link Order} comes before all that: SecretsScanIT's puts it last.
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
            return 0;
        }
        return type.getPackageName().endsWith(".deployment") ? 2 : 1;
    }
}
