package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.storm.StormReport;

/** What every storm must leave behind, counted against the gateway's own charges. */
public final class StormInvariants {

  private StormInvariants() {}

  /**
   * No order charged twice; every payment answered captured charged exactly once; no order paid
   * without a charge; no order charged without being paid (a charge that no recorded attempt stands
   * for would leave exactly that); and none of the storm's keys still processing after settling.
   */
  public static void assertHeld(StormReport report) {
    assertThat(report.ordersChargedTwice()).as(report.table()).isZero();
    assertThat(report.capturedNotChargedOnce()).as(report.table()).isZero();
    assertThat(report.paidButNeverCharged()).as(report.table()).isZero();
    assertThat(report.chargedButNotPaid()).as(report.table()).isZero();
    assertThat(report.processingKeysLeft()).as(report.table()).isZero();
  }

  /** Every 5xx the customers got was an RFC 9457 problem with Retry-After, never a bare error. */
  public static void assertEvery5xxAProblemWithRetryAfter(StormReport report) {
    assertThat(report.answers().keySet())
        .as("every 5xx a problem with Retry-After: %s", report.answers())
        .noneMatch(answer -> answer.contains("without Retry-After"))
        .noneMatch(answer -> answer.contains("not a problem"));
  }
}
