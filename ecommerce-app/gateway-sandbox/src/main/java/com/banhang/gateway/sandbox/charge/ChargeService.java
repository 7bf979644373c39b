package com.banhang.gateway.sandbox.charge;

import com.banhang.gateway.sandbox.fault.FaultControl;
import com.banhang.gateway.sandbox.fault.FaultDecision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The card processor: charges once per idempotency key, replays the stored charge for a retry of
 * the same request, refuses a key reused for another request, and injects the configured faults. A
 * request for a new key may be lost before the processor sees it: nothing is charged and it is
 * answered like a lost response. A replay gets no fault but its latency, unless the settings say
 * {@code faultsOnReplays}: then it may fail before the charge (nothing changes) or lose its
 * response as a new charge would, so that a client's retries can stay unanswered after its first
 * call charged. A replay is never lost on the way in, flag or not.
 *
 * <p>The database's unique constraint on the key, not a check in this class, decides which of
 * several concurrent requests creates the charge; the others read the winner's charge and replay
 * it.
 */
@ApplicationScoped
public class ChargeService {

  /**
   * MicroProfile Config property: how long a key holds its charge (ISO-8601 duration, default
   * PT24H).
   */
  public static final String KEY_RETENTION = "gateway.key-retention";

  /**
   * How often a request that lost the insert looks for the winner's charge before answering 409.
   */
  static final int WINNER_READ_ATTEMPTS = 10;

  static final long WINNER_READ_INTERVAL_MS = 50;

  private final ChargeRepository repository;
  private final FaultControl faults;
  private final Duration keyRetention;
  private final Clock clock;
  private final Pause pause;
  private final ChargeCommitHook commitHook;

  /** For CDI's client proxy only. */
  protected ChargeService() {
    this(null, null, Duration.ZERO, Clock.systemUTC(), Pause.SLEEP);
  }

  @Inject
  public ChargeService(
      ChargeRepository repository,
      FaultControl faults,
      @ConfigProperty(name = KEY_RETENTION, defaultValue = "PT24H") Duration keyRetention,
      ChargeCommitHook commitHook) {
    this(repository, faults, keyRetention, Clock.systemUTC(), Pause.SLEEP, commitHook);
  }

  /**
   * A processor whose new charges cause nothing after their commit.
   *
   * @param keyRetention how long a key holds its charge; after that the key may start a new charge
   */
  public ChargeService(
      ChargeRepository repository,
      FaultControl faults,
      Duration keyRetention,
      Clock clock,
      Pause pause) {
    this(repository, faults, keyRetention, clock, pause, ChargeCommitHook.NONE);
  }

  /**
   * @param keyRetention how long a key holds its charge; after that the key may start a new charge
   * @param commitHook runs after a new charge commits and before the call answers (an early
   *     webhook)
   */
  public ChargeService(
      ChargeRepository repository,
      FaultControl faults,
      Duration keyRetention,
      Clock clock,
      Pause pause,
      ChargeCommitHook commitHook) {
    this.repository = repository;
    this.commitHook = commitHook;
    this.faults = faults;
    this.keyRetention = keyRetention;
    this.clock = clock;
    this.pause = pause;
  }

  /** Charges a valid request under a valid key. */
  public ChargeResult charge(String idempotencyKey, ChargeRequest request) {
    // One decision per call, drawn first, so that the random sequence depends only on the number of
    // calls.
    FaultDecision decision = faults.nextDecision();
    String requestHash = ChargeFingerprint.of(request);

    // A request lost on the way in must not change the processor's state, not even retire an
    // expired key.
    Optional<Charge> existing = findLive(idempotencyKey, !decision.loseRequest());
    if (existing.isPresent()) {
      // The processor answers from its idempotency cache: latency, and other faults only if asked
      // for. A lost request never applies here: the fault is only for a key without a charge.
      pause.pause(decision.latencyMs());
      return replayOrRefuse(existing.get(), requestHash, decision);
    }
    if (decision.loseRequest()) {
      // The processor never sees the request, so it can neither fail (errorBeforeCharge) nor
      // charge. The client waits the latency and then gets what a lost response gets: it cannot
      // tell the two apart.
      pause.pause(decision.latencyMs());
      return new ChargeResult.RequestLost(
          newCharge(idempotencyKey, request, requestHash), decision.dropMode());
    }
    if (decision.errorBeforeCharge()) {
      pause.pause(decision.latencyMs());
      return new ChargeResult.ProcessorUnavailable();
    }

    pause.pause(decision.latencyBeforeChargeMs());
    Charge charge = newCharge(idempotencyKey, request, requestHash);
    boolean won = repository.insert(charge);
    if (won) {
      // Before the latency and the answer: an event delivered "early" reaches the shop while its
      // charge call is still running, as a real processor's webhook sometimes does.
      commitHook.afterCommit(charge);
    }
    // The charge (ours or the winner's) is committed now; the response waits, as a late processor's
    // would.
    pause.pause(decision.latencyAfterChargeMs());
    if (!won) {
      return resultOfLostInsert(idempotencyKey, requestHash, decision);
    }
    if (decision.dropResponse()) {
      return new ChargeResult.ResponseDropped(charge, decision.dropMode());
    }
    return new ChargeResult.Created(charge);
  }

  /**
   * The charge a key holds, succeeded or declined, as long as the key is within its retention
   * window.
   */
  public Optional<Charge> findByKey(String idempotencyKey) {
    return findLive(idempotencyKey, false);
  }

  /**
   * A charge by its id, succeeded or declined, also after its key's retention: a processor keeps
   * its charges, it only forgets which key made them.
   */
  public Optional<Charge> findById(String chargeId) {
    return repository.findById(chargeId);
  }

  /** Succeeded and declined charges of one order reference. */
  public ChargeCounts countsFor(String orderReference) {
    return repository.countsFor(orderReference);
  }

  /** Succeeded and declined charges in total. */
  public ChargeCounts totals() {
    return repository.totals();
  }

  /** Succeeded charges per order reference. */
  public Map<String, Long> succeededByOrderReference() {
    return repository.succeededByOrderReference();
  }

  private Optional<Charge> findLive(String idempotencyKey, boolean retireExpired) {
    Optional<Charge> charge = repository.findByKey(idempotencyKey);
    if (charge.isPresent() && isExpired(charge.get())) {
      if (retireExpired) {
        repository.retireKey(charge.get().id(), idempotencyKey);
      }
      return Optional.empty();
    }
    return charge;
  }

  private boolean isExpired(Charge charge) {
    return !charge.createdAt().plus(keyRetention).isAfter(clock.instant());
  }

  /**
   * The answer for a key that already holds {@code existing}: 422 for another request, else the
   * stored charge, which with {@code faultsOnReplays} is subject to the call's error-before-charge
   * and drop decisions (in that order, as for a new charge). A 422 never gets these faults.
   */
  private static ChargeResult replayOrRefuse(
      Charge existing, String requestHash, FaultDecision decision) {
    if (!existing.requestHash().equals(requestHash)) {
      return new ChargeResult.KeyReused();
    }
    if (decision.faultsOnReplays()) {
      if (decision.errorBeforeCharge()) {
        return new ChargeResult.ProcessorUnavailable();
      }
      if (decision.dropResponse()) {
        return new ChargeResult.ResponseDropped(existing, decision.dropMode());
      }
    }
    return new ChargeResult.Replayed(existing);
  }

  private ChargeResult resultOfLostInsert(
      String idempotencyKey, String requestHash, FaultDecision decision) {
    // With auto-commit the winner's row is normally visible at once; the retries cover a database
    // that reports the conflict before the winner's commit is visible to a new statement.
    for (int attempt = 1; attempt <= WINNER_READ_ATTEMPTS; attempt++) {
      Optional<Charge> winner = repository.findByKey(idempotencyKey);
      if (winner.isPresent()) {
        // A replay of the winner's charge; errorBeforeCharge and loseRequest are false here, or
        // this call would not have tried the insert.
        return replayOrRefuse(winner.get(), requestHash, decision);
      }
      if (attempt < WINNER_READ_ATTEMPTS) {
        pause.pause(WINNER_READ_INTERVAL_MS);
      }
    }
    return new ChargeResult.InProgress();
  }

  private Charge newCharge(String idempotencyKey, ChargeRequest request, String requestHash) {
    // Milliseconds: what every database keeps, so a replay shows the same createdAt as the first
    // answer.
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    return new Charge(
        ChargeIds.next(),
        ChargeStatus.forPaymentMethod(request.getPaymentMethod()),
        request.getAmount(),
        request.getCurrency(),
        request.getOrderReference(),
        request.getPaymentMethod(),
        idempotencyKey,
        requestHash,
        now);
  }
}
