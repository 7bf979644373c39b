package com.banhang.shop.admin.application;

import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.PurgeRun;
import com.banhang.shop.payments.api.GatewayLookup;
import com.banhang.shop.payments.api.GatewayLookup.GatewayAnswer;
import com.banhang.shop.payments.api.LateChargeReport;
import com.banhang.shop.payments.api.LateChargeSweep;
import com.banhang.shop.payments.api.PaymentRecords;
import com.banhang.shop.payments.api.PaymentResolution;
import com.banhang.shop.payments.api.Reconciliation;
import com.banhang.shop.payments.api.ReconciliationReport;
import com.banhang.shop.payments.api.ReconciliationReport.Finding;
import com.banhang.shop.payments.api.Resolution;
import com.banhang.shop.payments.api.ResolutionAudit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What an operator may do to keys (docs/operations.md); every call is written to the audit with its
 * result, refusals included. The actions themselves belong to the payments context and the
 * idempotency library; this class checks what an operator must give (a reason) and keeps the
 * record.
 */
@ApplicationScoped
public class OperatorActions {

  /** Audit action names. */
  public static final String RECONCILE = "RECONCILE";

  public static final String RESOLVE_AS_CHARGED = "RESOLVE_AS_CHARGED";
  public static final String RESOLVE_AS_CHARGED_OVERRIDE = "RESOLVE_AS_CHARGED_OVERRIDE";
  public static final String RESOLVE_AS_NOT_CHARGED = "RESOLVE_AS_NOT_CHARGED";
  public static final String PURGE = "PURGE";
  public static final String RESEAL_BODIES = "RESEAL_BODIES";
  public static final String RECONCILE_RUN = "RECONCILE_RUN";
  public static final String SWEEP_LATE_CHARGES = "SWEEP_LATE_CHARGES";
  public static final String READ_LATE_CHARGES = "READ_LATE_CHARGES";
  public static final String PROPOSE_OVERRIDE = "PROPOSE_OVERRIDE";
  public static final String APPROVE_OVERRIDE = "APPROVE_OVERRIDE";
  public static final String ASK_GATEWAY = "ASK_GATEWAY";
  public static final String EXPORT = "EXPORT";
  public static final String READ_EVENTS_OUT = "READ_EVENTS_OUT";
  public static final String RETRY_EVENT = "RETRY_EVENT";
  public static final String RETRY_WEBHOOK = "RETRY_WEBHOOK";
  public static final String ENABLE_WEBHOOK_ENDPOINT = "ENABLE_WEBHOOK_ENDPOINT";

  private static final Logger LOG = Logger.getLogger(OperatorActions.class.getName());

  @Inject Reconciliation reconciliation;
  @Inject LateChargeSweep lateChargeSweep;
  @Inject PaymentResolution resolution;
  @Inject IdempotencyKeys keys;
  @Inject AuditLog audit;
  @Inject OverrideProposals proposals;
  @Inject GatewayLookup gatewayLookup;
  @Inject PaymentRecords paymentRecords;

  /**
   * Whether an override resolution (resolve as charged although the gateway does not know the
   * charge) needs a second operator's approval; true unless configured off (docs/configuration.md).
   */
  @Inject
  @ConfigProperty(name = "shop.operators.override-needs-approval", defaultValue = "true")
  boolean overrideNeedsApproval;

  /** Asks the gateway about each key now (whatever its age) and settles what it can. */
  public ActionResult reconcile(String operator, List<KeyRef> selected) {
    if (selected == null || selected.isEmpty()) {
      return ActionResult.refused("select at least one key to reconcile");
    }
    Map<Finding, Integer> findings = new EnumMap<>(Finding.class);
    List<String> refusals = new ArrayList<>();
    for (KeyRef ref : selected) {
      KeyReconciled one = reconcileOne(ref);
      record(operator, RECONCILE, ref, null, one.result());
      if (one.finding() == null) {
        refusals.add(one.result().message());
      } else {
        findings.merge(one.finding(), 1, Integer::sum);
      }
    }
    String summary =
        findings.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", "));
    String message =
        "reconciled "
            + selected.size()
            + (selected.size() == 1 ? " key" : " keys")
            + (summary.isEmpty() ? "" : ": " + summary)
            + (refusals.isEmpty() ? "" : "; refused: " + String.join("; ", refusals));
    if (findings.isEmpty()) {
      return ActionResult.refused(message);
    }
    boolean failed =
        findings.keySet().stream().anyMatch(o -> statusOf(o) == ActionResult.Status.FAILED);
    return new ActionResult(
        failed ? ActionResult.Status.FAILED : ActionResult.Status.DONE, message);
  }

  /**
   * A reconciliation run now over every due key ({@code minAge} null: the schedule's age), audited
   * with its report. A failing run is audited as failed and its exception goes on to the caller.
   */
  public ReconciliationReport reconcileRun(String operator, Duration minAge) {
    return auditedRun(
        operator,
        RECONCILE_RUN,
        minAge == null ? null : "minAge " + minAge,
        () ->
            minAge == null
                ? reconciliation.reconcileDueKeys()
                : reconciliation.reconcileKeysOlderThan(minAge),
        report -> "examined " + report.examined() + " keys: " + report.findings());
  }

  /** The late-charge sweep now over every abandoned attempt, audited with its report. */
  public LateChargeReport sweepLateCharges(String operator) {
    return auditedRun(
        operator,
        SWEEP_LATE_CHARGES,
        null,
        () -> lateChargeSweep.sweep(Duration.ZERO),
        report -> "examined " + report.examined() + " attempts: " + report.findings());
  }

  /**
   * Runs an action made of many transactions (a run, a sweep) and audits it once, after, with its
   * report; a failing one is audited as failed and its exception goes on to the caller.
   */
  private <T> T auditedRun(
      String operator,
      String action,
      String reason,
      java.util.function.Supplier<T> run,
      java.util.function.Function<T, String> summary) {
    T report;
    try {
      report = run.get();
    } catch (RuntimeException e) {
      record(
          operator,
          action,
          null,
          reason,
          new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage()));
      throw e;
    }
    record(operator, action, null, reason, ActionResult.done(summary.apply(report)));
    return report;
  }

  /** What reconciling one key gave: its outcome, or null when it was refused before asking. */
  private record KeyReconciled(Finding finding, ActionResult result) {}

  private KeyReconciled reconcileOne(KeyRef ref) {
    if (!StuckOperations.PAYMENTS_CHARGE.equals(ref.operation())) {
      return refusedKey(
          ref.key()
              + " is a "
              + ref.operation()
              + " key: only payments.charge keys are reconciled");
    }
    Finding finding;
    try {
      finding = reconciliation.reconcileKey(ref.tenant(), ref.key());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "operator reconciliation failed", e);
      return new KeyReconciled(
          Finding.FAILED,
          new ActionResult(ActionResult.Status.FAILED, Finding.FAILED + ": " + e.getMessage()));
    }
    if (finding == Finding.NOT_PROCESSING) {
      return refusedKey(ref.key() + " is not processing any more: nothing to reconcile");
    }
    return new KeyReconciled(
        finding, new ActionResult(statusOf(finding), finding + ": " + describe(finding)));
  }

  private static KeyReconciled refusedKey(String message) {
    return new KeyReconciled(null, ActionResult.refused(message));
  }

  private static ActionResult.Status statusOf(Finding finding) {
    return switch (finding) {
      case FAILED, GATEWAY_UNREACHABLE -> ActionResult.Status.FAILED;
      default -> ActionResult.Status.DONE;
    };
  }

  private static String describe(Finding finding) {
    return switch (finding) {
      case CAPTURED -> "the gateway had charged; payment captured, order paid, key completed";
      case DECLINED -> "the gateway had declined; the 402 is stored for the customer";
      case RELEASED -> "the gateway never charged; key released, the customer's retry runs anew";
      case GATEWAY_UNREACHABLE -> "the gateway could not be asked; try again later";
      case STILL_RUNNING -> "its request may still be running (lease not run out); left alone";
      case NEEDS_OPERATOR ->
          "older than the gateway keeps keys and not found there: resolve it by hand";
      case SETTLED_ELSEWHERE -> "settled by another node or request meanwhile";
      case FAILED -> "unexpected failure, logged";
      case NOT_PROCESSING -> "not processing";
    };
  }

  /**
   * Settles a payments.charge key as charged by the gateway charge {@code chargeId}: accepted only
   * if the gateway knows the charge and its amount, currency and order reference match the payment;
   * with {@code override}, also when the gateway no longer knows it (audited as an override).
   * Answers {@link ActionResult.Status#CONFIRMATION_NEEDED} when an override would be needed and
   * was not given.
   */
  public ActionResult resolveAsCharged(
      String operator, KeyRef ref, String chargeId, String reason, boolean override) {
    if (override && overrideNeedsApproval) {
      return proposeOverride(operator, ref, chargeId, reason);
    }
    String action = override ? RESOLVE_AS_CHARGED_OVERRIDE : RESOLVE_AS_CHARGED;
    String why = reasonWithCharge(reason, chargeId);
    Optional<ActionResult> refusal = chargeResolutionRefusal(ref, chargeId, reason);
    if (refusal.isPresent()) {
      return record(operator, action, ref, why, refusal.get());
    }
    return resolvedAndAudited(
        operator,
        action,
        ref,
        why,
        entry ->
            resolution.resolveAsCharged(ref.tenant(), ref.key(), chargeId.trim(), override, entry));
  }

  /** Why a resolution as charged cannot even be tried; empty when it can. */
  private static Optional<ActionResult> chargeResolutionRefusal(
      KeyRef ref, String chargeId, String reason) {
    if (blank(reason)) {
      return Optional.of(ActionResult.refused("a reason is required to resolve a payment"));
    }
    if (!StuckOperations.PAYMENTS_CHARGE.equals(ref.operation())) {
      return Optional.of(ActionResult.refused("only payments.charge keys can be resolved"));
    }
    if (blank(chargeId)) {
      return Optional.of(
          ActionResult.refused("the gateway's charge id is required to resolve as charged"));
    }
    return Optional.empty();
  }

  /**
   * The first half of an override under four eyes: checks the resolution as a plain one would
   * (reason, key, charge; the gateway asked), and only when the gateway does not know the charge,
   * records a proposal that a different operator must {@link #approveOverride approve}. Nothing
   * changes now; proposal or refusal is audited as {@value #PROPOSE_OVERRIDE}.
   */
  private ActionResult proposeOverride(
      String operator, KeyRef ref, String chargeId, String reason) {
    String why = reasonWithCharge(reason, chargeId);
    ActionResult result;
    Optional<ActionResult> refusal = chargeResolutionRefusal(ref, chargeId, reason);
    if (refusal.isPresent()) {
      result = refusal.get();
    } else {
      // The gateway knows the charge: resolved at once, its entry in the same transaction.
      Resolved checked =
          resolveInOneTransaction(
              operator,
              PROPOSE_OVERRIDE,
              ref,
              why,
              entry ->
                  resolution.resolveAsCharged(
                      ref.tenant(), ref.key(), chargeId.trim(), false, entry));
      if (checked.audited()) {
        return checked.result();
      }
      ActionResult check = checked.result();
      if (check.status() != ActionResult.Status.CONFIRMATION_NEEDED) {
        // The gateway knows the charge (resolved without an override), or a refusal or failure:
        // no override to approve.
        result = check;
      } else {
        try {
          long id = proposals.propose(operator, ref, chargeId.trim(), reason.trim());
          result =
              new ActionResult(
                  ActionResult.Status.PROPOSED,
                  "override proposal "
                      + id
                      + " recorded: nothing changes until a different operator approves it ("
                      + check.message()
                      + ")",
                  id);
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "override proposal not recorded", e);
          result =
              new ActionResult(
                  ActionResult.Status.FAILED, "the proposal could not be recorded; try again");
        }
      }
    }
    return record(operator, PROPOSE_OVERRIDE, ref, why, result);
  }

  /**
   * The second half: a different operator approves a waiting override proposal, which then runs the
   * resolution as an override. The proposer's own approval is refused; so is one of a proposal
   * already approved (one conditional update decides, on any node). Audited as {@value
   * #APPROVE_OVERRIDE}, the proposer named in the reason.
   */
  public ActionResult approveOverride(String approver, long proposalId) {
    Optional<OverrideProposal> found = proposals.find(proposalId);
    if (found.isEmpty()) {
      return record(
          approver,
          APPROVE_OVERRIDE,
          null,
          "proposal " + proposalId,
          ActionResult.refused("no override proposal " + proposalId));
    }
    OverrideProposal proposal = found.get();
    String why =
        "proposal "
            + proposalId
            + " by "
            + proposal.proposedBy()
            + ": "
            + proposal.reason()
            + " [charge "
            + proposal.chargeId()
            + "]";
    ActionResult result;
    if (approver.equals(proposal.proposedBy())) {
      result =
          ActionResult.refused(
              "an override needs a second operator: "
                  + approver
                  + " proposed it and cannot approve it");
    } else if (!proposals.approve(proposalId, approver)) {
      result =
          ActionResult.refused(
              "override proposal " + proposalId + " is no longer waiting for approval");
    } else {
      result =
          resolvedAndAudited(
              approver,
              APPROVE_OVERRIDE,
              proposal.ref(),
              why,
              entry ->
                  resolution.resolveAsCharged(
                      proposal.ref().tenant(),
                      proposal.ref().key(),
                      proposal.chargeId(),
                      true,
                      entry));
      if (result.status() == ActionResult.Status.FAILED) {
        // Could not be run now (the gateway or the database): approvable again later.
        proposals.reopen(proposalId);
      }
      return result;
    }
    return record(approver, APPROVE_OVERRIDE, proposal.ref(), why, result);
  }

  /** One override proposal, whatever its state. */
  public Optional<OverrideProposal> findOverride(long proposalId) {
    return proposals.find(proposalId);
  }

  /** Override proposals waiting for a second operator, oldest first. */
  public List<OverrideProposal> pendingOverrides() {
    return proposals.pending();
  }

  /**
   * Settles a payments.charge key as not charged: the attempt is abandoned, the key released (the
   * customer's retry runs anew) and the order payable again.
   */
  public ActionResult resolveAsNotCharged(String operator, KeyRef ref, String reason) {
    ActionResult result;
    if (blank(reason)) {
      result = ActionResult.refused("a reason is required to resolve a payment");
    } else if (!StuckOperations.PAYMENTS_CHARGE.equals(ref.operation())) {
      result = ActionResult.refused("only payments.charge keys can be resolved");
    } else {
      return resolvedAndAudited(
          operator,
          RESOLVE_AS_NOT_CHARGED,
          ref,
          reason,
          entry -> resolution.resolveAsNotCharged(ref.tenant(), ref.key(), entry));
    }
    return record(operator, RESOLVE_AS_NOT_CHARGED, ref, reason, result);
  }

  /**
   * "Ask the gateway now": the processor's view of a payment by its gateway key, beside the shop's.
   * Changes nothing; audited as a read ({@value #ASK_GATEWAY}) with what the gateway said, so a
   * ticket can show who looked and what they saw.
   */
  public GatewayAnswer askGateway(String operator, String paymentId) {
    GatewayAnswer answer;
    try {
      answer = gatewayLookup.ask(paymentId);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "operator gateway lookup failed", e);
      answer =
          new GatewayAnswer(
              GatewayAnswer.Finding.UNAVAILABLE,
              null,
              0,
              null,
              null,
              "the gateway could not be asked: " + e.getMessage(),
              java.time.Instant.now());
    }
    KeyRef ref =
        paymentRecords
            .find(paymentId)
            .map(p -> new KeyRef(p.tenantId(), StuckOperations.PAYMENTS_CHARGE, p.idempotencyKey()))
            .orElse(null);
    ActionResult result =
        switch (answer.finding()) {
          case NO_SUCH_PAYMENT -> ActionResult.refused("no payment " + paymentId);
          case UNAVAILABLE ->
              new ActionResult(ActionResult.Status.FAILED, "UNAVAILABLE: " + answer.detail());
          default -> ActionResult.done(answer.finding() + ": " + answer.detail());
        };
    record(operator, ASK_GATEWAY, ref, "payment " + paymentId, result);
    return answer;
  }

  /**
   * A CSV export an operator downloaded: a read, audited with what and how many rows, so that rows
   * that left the console are on record like every other action.
   */
  public void recordExport(String operator, String file, int rows) {
    record(operator, EXPORT, null, file, ActionResult.done("exported " + rows + " rows"));
  }

  /** Runs the retention purge now on this node. */
  public ActionResult purgeNow(String operator) {
    ActionResult result;
    try {
      PurgeRun run = keys.purgeExpiredNow(operator);
      result =
          ActionResult.done(
              "purged "
                  + run.rowsDeleted()
                  + " expired keys"
                  + (PurgeRun.PARTITIONS.equals(run.method())
                      ? " (" + run.partitionsDropped() + " expired partitions dropped whole)"
                      : "")
                  + " in "
                  + run.durationMillis()
                  + " ms on "
                  + run.node());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "operator purge failed", e);
      result = new ActionResult(ActionResult.Status.FAILED, "purge failed: " + e.getMessage());
    }
    return record(operator, PURGE, null, null, result);
  }

  /**
   * Re-seals, with the current body key, the stored bodies still sealed with an old one, now on
   * this node (docs/operations.md, "Re-sealing stored bodies"). The library records the run in its
   * own table, a failed one too; the audit says which operator asked, and what came of it. A run
   * that leaves rows with an old key is done (what it moved is committed) and says why and how many
   * remain.
   */
  public ActionResult resealBodies(String operator) {
    ActionResult result;
    try {
      BodyResealRun run = keys.resealBodiesNow(operator);
      String moved =
          "re-sealed "
              + run.rowsResealed()
              + " stored bodies"
              + (run.fromKeyIds().isEmpty() ? "" : " from " + run.fromKeyIdsText())
              + (run.toKeyId() == null ? "" : " to " + run.toKeyId())
              + " in "
              + run.durationMillis()
              + " ms on "
              + run.node();
      result =
          ActionResult.done(
              run.status() == BodyResealRun.Status.COMPLETE
                  ? moved + "; none remain with an old key"
                  : moved
                      + "; "
                      + run.rowsRemaining()
                      + " remain with an old key: "
                      + run.detail());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "operator re-seal failed", e);
      result = new ActionResult(ActionResult.Status.FAILED, "re-seal failed: " + e.getMessage());
    }
    return record(operator, RESEAL_BODIES, null, null, result);
  }

  /**
   * Writes the audit entry. The action has already happened (or been refused) when this runs, so a
   * failing audit write must not turn its answer into an error the operator would retry: it is
   * logged as severe and the answer says the entry is missing.
   */
  private ActionResult record(
      String operator, String action, KeyRef ref, String reason, ActionResult result) {
    try {
      audit.append(operator, action, ref, reason, result);
      return result;
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "operator action not audited: "
              + LogText.of(operator + " " + action + " " + ref + " " + reason + " " + result),
          e);
      return new ActionResult(
          result.status(), result.message() + " (the audit entry could not be written)");
    }
  }

  /**
   * Runs a resolution that changes a payment or a key, with its audit entry written inside the
   * resolution's own transaction (ResolutionAudit): the change and its entry commit together, and
   * an entry that cannot be written rolls the change back. A resolution that changed nothing (a
   * refusal, a failure, a key settled meanwhile) is audited alone, after.
   */
  private ActionResult resolvedAndAudited(
      String operator,
      String action,
      KeyRef ref,
      String reason,
      java.util.function.Function<ResolutionAudit, Resolution> call) {
    Resolved resolved = resolveInOneTransaction(operator, action, ref, reason, call);
    return resolved.audited()
        ? resolved.result()
        : record(operator, action, ref, reason, resolved.result());
  }

  /** A resolution's answer, and whether its entry was committed with its change. */
  private record Resolved(ActionResult result, boolean audited) {}

  private Resolved resolveInOneTransaction(
      String operator,
      String action,
      KeyRef ref,
      String reason,
      java.util.function.Function<ResolutionAudit, Resolution> call) {
    java.util.concurrent.atomic.AtomicBoolean audited =
        new java.util.concurrent.atomic.AtomicBoolean();
    ResolutionAudit inTheSameTransaction =
        done -> {
          audit.append(operator, action, ref, reason, actionResult(done));
          audited.set(true);
        };
    ActionResult result = resolved(() -> call.apply(inTheSameTransaction));
    // A resolution that threw (its transaction rolled back, the entry with it) answers FAILED.
    return new Resolved(result, audited.get() && result.status() != ActionResult.Status.FAILED);
  }

  private ActionResult resolved(java.util.function.Supplier<Resolution> call) {
    Resolution resolution;
    try {
      resolution = call.get();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "operator resolution failed", e);
      return new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage());
    }
    return actionResult(resolution);
  }

  private static ActionResult actionResult(Resolution resolution) {
    ActionResult.Status status =
        switch (resolution.result()) {
          case RESOLVED -> ActionResult.Status.DONE;
          case REFUSED -> ActionResult.Status.REFUSED;
          case CONFIRMATION_NEEDED -> ActionResult.Status.CONFIRMATION_NEEDED;
          case FAILED -> ActionResult.Status.FAILED;
        };
    return new ActionResult(status, resolution.message());
  }

  private static String reasonWithCharge(String reason, String chargeId) {
    String text = blank(reason) ? "" : reason.trim();
    return blank(chargeId) ? emptyToNull(text) : text + " [charge " + chargeId.trim() + "]";
  }

  private static String emptyToNull(String text) {
    return text.isEmpty() ? null : text;
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }

  /** Audit action name of {@link #markLateChargeHandled}. */
  public static final String LATE_CHARGE_HANDLED = "LATE_CHARGE_HANDLED";

  /**
   * The shortest reason a late charge is marked handled with: shorter is not a reason a colleague
   * can act on ("ok", "done", "see ticket"); the console's dialog asks the same.
   */
  public static final int MIN_HANDLING_REASON_LENGTH = 20;

  /** The ticket the console's dialog appends to the operator's words: "... [ticket INC-42]". */
  private static final java.util.regex.Pattern WITH_TICKET =
      java.util.regex.Pattern.compile("(?s)^(.*?)\\s*\\[ticket\\s+([^\\]]*\\S[^\\]]*)\\]$");

  @Inject com.banhang.shop.payments.api.FlaggedLateCharges flaggedLateCharges;

  /**
   * Marks a flagged late charge handled (docs/operations.md, "Late charges"): the operator refunded
   * it at the processor ({@code REFUNDED}) or accepts it as it stands ({@code ACCEPTED}). Nothing
   * moves money here; the mark takes the charge off the Overview's count. The reason must say what
   * was done and where in at least {@value #MIN_HANDLING_REASON_LENGTH} characters and end with a
   * ticket reference, as the console's dialog writes it ("... [ticket INC-42]"). A mark is audited
   * as {@value #LATE_CHARGE_HANDLED} in the mark's own transaction (no mark without its entry); a
   * refusal or a failure is audited alone, after.
   */
  public ActionResult markLateChargeHandled(
      String operator,
      String paymentId,
      com.banhang.shop.payments.api.FlaggedLateCharges.Handling handling,
      String reason) {
    KeyRef ref = keyOfPayment(paymentId);
    String why =
        "payment "
            + paymentId
            + (handling == null ? "" : ", " + handling)
            + (blank(reason) ? "" : ": " + reason.trim());
    Optional<ActionResult> refusal = handlingRefusal(paymentId, handling, reason);
    if (refusal.isPresent()) {
      return record(operator, LATE_CHARGE_HANDLED, ref, why, refusal.get());
    }
    java.util.concurrent.atomic.AtomicBoolean audited =
        new java.util.concurrent.atomic.AtomicBoolean();
    ActionResult result;
    try {
      result =
          handlingResult(
              flaggedLateCharges.markHandled(
                  paymentId.trim(),
                  handling,
                  operator,
                  reason.trim(),
                  done -> {
                    audit.append(operator, LATE_CHARGE_HANDLED, ref, why, handlingResult(done));
                    audited.set(true);
                  }));
    } catch (RuntimeException e) {
      // The mark's transaction rolled back, its audit entry with it: nothing was marked.
      LOG.log(Level.WARNING, "marking a late charge handled failed", e);
      return record(
          operator,
          LATE_CHARGE_HANDLED,
          ref,
          why,
          new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage()));
    }
    return audited.get() ? result : record(operator, LATE_CHARGE_HANDLED, ref, why, result);
  }

  /** Why a late charge cannot even be offered for marking; empty when it can. */
  private static Optional<ActionResult> handlingRefusal(
      String paymentId,
      com.banhang.shop.payments.api.FlaggedLateCharges.Handling handling,
      String reason) {
    if (blank(paymentId)) {
      return Optional.of(ActionResult.refused("select the late charge to mark handled"));
    }
    if (handling == null) {
      return Optional.of(
          ActionResult.refused("say how the late charge was handled: refunded or accepted"));
    }
    return reasonRefusal("a late charge", reason);
  }

  /**
   * Why {@code reason} is not one a colleague can act on: missing, without a ticket at its end
   * ("... [ticket INC-42]", as the console's dialog writes it), or shorter than {@value
   * #MIN_HANDLING_REASON_LENGTH} characters besides the ticket; empty when it is one.
   *
   * @param what what is being marked handled, for the refusal's words ("a late charge")
   */
  private static Optional<ActionResult> reasonRefusal(String what, String reason) {
    if (blank(reason)) {
      return Optional.of(ActionResult.refused("a reason is required to mark " + what + " handled"));
    }
    java.util.regex.Matcher withTicket = WITH_TICKET.matcher(reason.trim());
    if (!withTicket.matches()) {
      return Optional.of(
          ActionResult.refused(
              "a ticket reference is required to mark "
                  + what
                  + " handled: end the reason with [ticket <reference>]"));
    }
    if (withTicket.group(1).trim().length() < MIN_HANDLING_REASON_LENGTH) {
      return Optional.of(
          ActionResult.refused(
              "say what you did and where, in at least "
                  + MIN_HANDLING_REASON_LENGTH
                  + " characters besides the ticket"));
    }
    return Optional.empty();
  }

  /** The key of a payment, for the audit entry and so for the payment page; null if unknown. */
  private KeyRef keyOfPayment(String paymentId) {
    if (blank(paymentId)) {
      return null;
    }
    try {
      return paymentRecords
          .find(paymentId.trim())
          .map(p -> new KeyRef(p.tenantId(), StuckOperations.PAYMENTS_CHARGE, p.idempotencyKey()))
          .orElse(null);
    } catch (RuntimeException e) {
      // The entry is still written, by payment id, without its key.
      LOG.log(Level.WARNING, "could not read payment " + LogText.of(paymentId), e);
      return null;
    }
  }

  private static ActionResult handlingResult(
      com.banhang.shop.payments.api.FlaggedLateCharges.HandlingAnswer answer) {
    return answer.done()
        ? ActionResult.done(answer.message())
        : ActionResult.refused(answer.message());
  }

  /**
   * Audit action names of the processor's webhook events (docs/operations.md, "Gateway events").
   */
  public static final String READ_GATEWAY_EVENTS = "READ_GATEWAY_EVENTS";

  public static final String RETRY_GATEWAY_EVENT = "RETRY_GATEWAY_EVENT";
  public static final String GATEWAY_EVENT_HANDLED = "GATEWAY_EVENT_HANDLED";

  /** The longest reason a gateway event is marked handled with (its column's width, V20). */
  public static final int MAX_GATEWAY_EVENT_REASON_LENGTH = 500;

  @Inject com.banhang.shop.payments.api.GatewayEvents gatewayEvents;

  /**
   * Processes a parked gateway event again now (docs/operations.md, "Gateway events"): payments
   * makes it pending and processes it at once, so the answer says where it stands after (settled,
   * confirmed, flagged, pending again, or parked again with why). Refused, and nothing changes, for
   * an event that does not exist or is not parked. Audited as {@value #RETRY_GATEWAY_EVENT} after
   * it, on the key of the event's payment when it has one, so that the payment's timeline shows it;
   * a settlement the processing makes is payments' own, on the payment's timeline.
   */
  public ActionResult retryGatewayEvent(String operator, String provider, String eventId) {
    String why = gatewayEventName(provider, eventId);
    if (blank(provider) || blank(eventId)) {
      return record(
          operator,
          RETRY_GATEWAY_EVENT,
          null,
          why,
          ActionResult.refused("select the gateway event to retry"));
    }
    GatewayEventRead read = readGatewayEvent(provider, eventId);
    if (read.answer() != null) {
      return record(operator, RETRY_GATEWAY_EVENT, null, why, read.answer());
    }
    com.banhang.shop.payments.api.GatewayEventView event = read.event();
    KeyRef ref = keyOfPayment(event.paymentId());
    if (!PARKED.equals(event.status())) {
      return record(
          operator,
          RETRY_GATEWAY_EVENT,
          ref,
          why,
          ActionResult.refused(
              "gateway event "
                  + eventId
                  + " is "
                  + event.status()
                  + ", not parked: only a parked event is retried"));
    }
    ActionResult result;
    try {
      if (gatewayEvents.retry(provider, eventId)) {
        result =
            ActionResult.done("gateway event " + eventId + " retried: " + after(provider, eventId));
      } else {
        result =
            ActionResult.refused(
                "gateway event " + eventId + " is no longer parked (retried meanwhile?)");
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "retrying a gateway event failed", e);
      result = new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage());
    }
    return record(operator, RETRY_GATEWAY_EVENT, ref, why, result);
  }

  /**
   * Marks a flagged gateway event handled (docs/operations.md, "Gateway events"): the operator
   * dealt with the contradiction at the processor or on the payment. Nothing is applied to the
   * payment; the mark records who and why and takes the event off the Overview's count. The reason
   * follows the late charges' rule (at least {@value #MIN_HANDLING_REASON_LENGTH} characters and a
   * ticket, at most {@value #MAX_GATEWAY_EVENT_REASON_LENGTH} in all). Payments makes the mark by
   * one conditional update (the first of two marks wins), in one transaction with its audit entry
   * {@value #GATEWAY_EVENT_HANDLED}; refusals and failures are audited too.
   */
  public ActionResult markGatewayEventHandled(
      String operator, String provider, String eventId, String reason) {
    String why = gatewayEventName(provider, eventId) + (blank(reason) ? "" : ": " + reason.trim());
    if (blank(provider) || blank(eventId)) {
      return record(
          operator,
          GATEWAY_EVENT_HANDLED,
          null,
          why,
          ActionResult.refused("select the gateway event to mark handled"));
    }
    Optional<ActionResult> refusal = reasonRefusal("a gateway event", reason);
    if (refusal.isEmpty() && reason.trim().length() > MAX_GATEWAY_EVENT_REASON_LENGTH) {
      refusal =
          Optional.of(
              ActionResult.refused(
                  "a reason of at most "
                      + MAX_GATEWAY_EVENT_REASON_LENGTH
                      + " characters, ticket included"));
    }
    if (refusal.isPresent()) {
      return record(operator, GATEWAY_EVENT_HANDLED, null, why, refusal.get());
    }
    GatewayEventRead read = readGatewayEvent(provider, eventId);
    if (read.answer() != null) {
      return record(operator, GATEWAY_EVENT_HANDLED, null, why, read.answer());
    }
    com.banhang.shop.payments.api.GatewayEventView event = read.event();
    KeyRef ref = keyOfPayment(event.paymentId());
    Optional<ActionResult> notMarkable = notMarkable(event);
    if (notMarkable.isPresent()) {
      return record(operator, GATEWAY_EVENT_HANDLED, ref, why, notMarkable.get());
    }
    ActionResult done =
        ActionResult.done(
            "gateway event "
                + eventId
                + " marked handled by "
                + operator
                + "; nothing was applied to the payment");
    java.util.concurrent.atomic.AtomicBoolean audited =
        new java.util.concurrent.atomic.AtomicBoolean();
    ActionResult result;
    try {
      // The audit entry commits with the mark, or neither does (as for late charges).
      if (gatewayEvents.markHandled(
          provider,
          eventId,
          operator,
          reason.trim(),
          () -> {
            audit.append(operator, GATEWAY_EVENT_HANDLED, ref, why, done);
            audited.set(true);
          })) {
        result = done;
      } else {
        // Another mark won meanwhile: say whose, when it can be read.
        result =
            readGatewayEvent(provider, eventId)
                .eventOrEmpty()
                .flatMap(OperatorActions::notMarkable)
                .orElse(
                    ActionResult.refused(
                        "gateway event " + eventId + " is no longer waiting for a mark"));
      }
    } catch (RuntimeException e) {
      // The mark's transaction rolled back, its audit entry with it: nothing was marked.
      LOG.log(Level.WARNING, "marking a gateway event handled failed", e);
      result = new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage());
      audited.set(false);
    }
    return audited.get() ? result : record(operator, GATEWAY_EVENT_HANDLED, ref, why, result);
  }

  private static final String PARKED =
      com.banhang.shop.payments.api.GatewayEventView.Status.PARKED.name();
  private static final String FLAGGED =
      com.banhang.shop.payments.api.GatewayEventView.Status.FLAGGED.name();

  /** Why a gateway event cannot be marked handled: not flagged, or marked already. */
  private static Optional<ActionResult> notMarkable(
      com.banhang.shop.payments.api.GatewayEventView event) {
    if (!FLAGGED.equals(event.status())) {
      return Optional.of(
          ActionResult.refused(
              "gateway event "
                  + event.eventId()
                  + " is "
                  + event.status()
                  + ", not flagged: only a flagged event is marked handled"));
    }
    if (event.handledBy() != null) {
      return Optional.of(
          ActionResult.refused(
              "gateway event "
                  + event.eventId()
                  + " was already handled by "
                  + event.handledBy()
                  + " ("
                  + event.handledReason()
                  + "); nothing changed"));
    }
    return Optional.empty();
  }

  /** A gateway event read for an action: the event, or the answer that ends the action. */
  private record GatewayEventRead(
      com.banhang.shop.payments.api.GatewayEventView event, ActionResult answer) {

    Optional<com.banhang.shop.payments.api.GatewayEventView> eventOrEmpty() {
      return Optional.ofNullable(event);
    }
  }

  private GatewayEventRead readGatewayEvent(String provider, String eventId) {
    try {
      return gatewayEvents
          .find(provider, eventId)
          .map(event -> new GatewayEventRead(event, null))
          .orElseGet(
              () ->
                  new GatewayEventRead(
                      null,
                      ActionResult.refused("no gateway event " + eventId + " from " + provider)));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not read gateway event " + LogText.of(eventId), e);
      return new GatewayEventRead(
          null, new ActionResult(ActionResult.Status.FAILED, "failed: " + e.getMessage()));
    }
  }

  /** Where a retried event stands now, in words; its processing already ran. */
  private String after(String provider, String eventId) {
    try {
      return gatewayEvents
          .find(provider, eventId)
          .map(
              event ->
                  "now "
                      + event.status()
                      + (blank(event.detail()) ? "" : " (" + event.detail() + ")"))
          .orElse("processed");
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not read a retried gateway event", e);
      return "processed; where it stands could not be read";
    }
  }

  /** How the audit names a gateway event: its provider and id. */
  private static String gatewayEventName(String provider, String eventId) {
    return "gateway event " + provider + "/" + eventId;
  }
}
