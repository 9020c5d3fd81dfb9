/**
 * The one checker every fault suite judges with ({@link dev.toolgate.checker.Checker}): fed a run's
 * {@link dev.toolgate.checker.History} — every answer an agent got, each key's journal row read directly, what each
 * target received and holds, and each armed fault's uses — it returns a {@link dev.toolgate.checker.Verdict} listing
 * every broken rule. Pure: it calls nothing, so each rule is unit-tested with recorded histories that break it.
 */
package dev.toolgate.checker;
