package dev.toolgate.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which error codes say that nothing was sent because a person withheld consent, and how a sentence names each. */
class ApprovalStandingTest {

    @Test
    void aRevokedExpiredOrDeclinedApprovalIsALapse() {
        assertTrue(ApprovalStanding.lapsed("approval_revoked"));
        assertTrue(ApprovalStanding.lapsed("approval_expired"));
        assertTrue(ApprovalStanding.lapsed("approval_declined"));
        assertTrue(ApprovalStanding.lapsed(ApprovalStanding.DECLINED_CODE));
        assertTrue(ApprovalStanding.lapsed(ApprovalStanding.REVOKED.lapseCode()));
        assertTrue(ApprovalStanding.lapsed(ApprovalStanding.EXPIRED.lapseCode()));
    }

    @Test
    void anyOtherEndingIsNoLapse() {
        assertFalse(ApprovalStanding.lapsed(null));
        assertFalse(ApprovalStanding.lapsed(""));
        assertFalse(ApprovalStanding.lapsed("retries_exhausted"));
        assertFalse(ApprovalStanding.lapsed("target_rejected"));
        assertFalse(ApprovalStanding.lapsed("APPROVAL_DECLINED"), "codes are compared exactly, as the journal stores them");
        assertFalse(ApprovalStanding.lapsed("approval_declined "));
    }

    @Test
    void namesEachLapseInAWord() {
        assertEquals("declined", ApprovalStanding.lapseWord("approval_declined"));
        assertEquals("revoked", ApprovalStanding.lapseWord("approval_revoked"));
        assertEquals("expired", ApprovalStanding.lapseWord("approval_expired"));
    }

    @Test
    void theDeclineCodeIsNeitherAStandingsLapseCode() {
        for (ApprovalStanding standing : ApprovalStanding.values()) {
            assertFalse(ApprovalStanding.DECLINED_CODE.equals(standing.lapseCode()), standing.name());
        }
    }
}
