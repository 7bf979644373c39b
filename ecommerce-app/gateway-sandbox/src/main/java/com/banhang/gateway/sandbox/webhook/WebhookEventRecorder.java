package com.banhang.gateway.sandbox.webhook;

import com.banhang.gateway.sandbox.charge.Charge;
import com.banhang.gateway.sandbox.charge.ChargeCommitHook;
import com.banhang.gateway.sandbox.fault.WebhookFaultControl;
import com.banhang.gateway.sandbox.fault.WebhookFaultDecision;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Records the event of each new charge in the charge's transaction, with the delivery faults drawn
 * for it, and delivers an "early" one from the charge call once the charge is committed.
 */
public final class WebhookEventRecorder implements ChargeCommitHook {

  /**
   * Added to the delivery timeout for an early event's first due time: the charge call delivers it,
   * the scheduled runs only if that call never got to (the server stopped in between).
   */
  static final long EARLY_GUARD_MS = 1000;

  private final ChargeWebhookSettings settings;
  private final WebhookRepository repository;
  private final WebhookFaultControl faults;
  private final ChargeWebhookDispatcher dispatcher;

  public WebhookEventRecorder(
      ChargeWebhookSettings settings,
      WebhookRepository repository,
      WebhookFaultControl faults,
      ChargeWebhookDispatcher dispatcher) {
    this.settings = settings;
    this.repository = repository;
    this.faults = faults;
    this.dispatcher = dispatcher;
  }

  @Override
  public void inTransaction(Connection connection, Charge charge) throws SQLException {
    WebhookFaultDecision decision = faults.nextDecision();
    WebhookEventType type = WebhookEventType.of(charge.status());
    String id = WebhookEvents.idFor(type, charge.id());
    Instant createdAt = charge.createdAt();
    boolean held = decision.reorder() && !decision.early();
    Instant due;
    if (decision.early()) {
      due = createdAt.plus(settings.timeout()).plusMillis(EARLY_GUARD_MS);
    } else if (held) {
      // Released as soon as a later event is sent; this is only the longest it waits for one.
      due = createdAt.plusMillis(decision.delayMs() + decision.reorderMaxHoldMs());
    } else {
      due = createdAt.plusMillis(decision.delayMs());
    }
    repository.insert(
        connection,
        new WebhookEvent(
            id,
            type,
            charge.id(),
            WebhookEvents.payload(id, type, charge, createdAt),
            createdAt,
            WebhookEventState.PENDING,
            due,
            0,
            held,
            decision.loseFirstAttempt(),
            decision.duplicate(),
            decision.early()));
  }

  @Override
  public void afterCommit(Charge charge) {
    dispatcher.deliverEarly(charge.id());
  }
}
