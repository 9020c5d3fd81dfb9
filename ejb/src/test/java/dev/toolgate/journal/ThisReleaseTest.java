package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The release's name as the build wrote it: version and commit, the commit left out when the build had none. */
class ThisReleaseTest {

    @Test
    void namesTheVersionAndTheCommitTheBuildWrote() {
        assertEquals("0.1.0-SNAPSHOT+628a0fe5e9c9", ThisRelease.named("0.1.0-SNAPSHOT+628a0fe5e9c9"));
    }

    @Test
    void leavesOutACommitTheBuildCouldNotTell() {
        assertEquals("0.1.0-SNAPSHOT", ThisRelease.named("0.1.0-SNAPSHOT+"), "git found no history");
        assertEquals("0.1.0-SNAPSHOT", ThisRelease.named("0.1.0-SNAPSHOT+${toolgate.commit}"), "the property was never set");
    }

    @Test
    void isUnnamedWhenTheBuildWroteNothing() {
        assertEquals("unnamed", ThisRelease.named(""));
        assertEquals("unnamed", ThisRelease.named("${project.version}+${toolgate.commit}"));
    }

    @Test
    void theBuildNamedThisOne() {
        assertEquals(true, ThisRelease.name().matches("[0-9][^+]*\\+[0-9a-f]{12}"), ThisRelease.name());
    }
}
