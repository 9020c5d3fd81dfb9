/**
 * The one checker every fault suite judges with: fed a run's {@link dev.toolgate.checker.History}, it returns a
 * {@link dev.toolgate.checker.Verdict} listing every broken rule. Pure: it calls nothing, so each rule is unit-tested
 * with recorded histories that break it.
 */
package dev.toolgate.checker;
