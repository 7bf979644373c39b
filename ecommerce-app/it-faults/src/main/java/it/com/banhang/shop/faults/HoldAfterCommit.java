package it.com.banhang.shop.faults;

import jakarta.annotation.Priority;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Response.Status.Family;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Test only, never in the shipped WAR: a keyed request's answer is held back after its commit, so
 * that ShopCrashIT can kill the shop's JVM between the commit and the answer and prove that what
 * was committed is what the retry gets.
 *
 * <p>Only a request that carries {@value #HEADER}: {@value #HOLD_AFTER_COMMIT} is held, and only
 * when its answer is a first success (2xx, not a replay): the business rows and the completed key
 * are then committed. A response filter is the latest point before the answer's bytes: it runs
 * after the resource method has returned, so after {@code @Transactional} committed the method's
 * transaction ({@code orders.create}: the order and the completed key) and after {@code
 * ChargeCompletion}'s own transaction ({@code payments.charge}: the payment, the order's PAID
 * status and the completed key), and before JAX-RS writes the entity. Response filters run in
 * descending priority, so this one, at {@value #LAST}, runs after the library's (at {@code
 * Priorities.USER}): nothing of the request is left to do but write.
 *
 * <p>Held rather than halted on the spot: several requests can then wait in this window at once,
 * and one SIGKILL (no shutdown hook, no transaction or log completed on the way out, as with a
 * power cut) loses all their answers together, which is also one restart instead of one per
 * request. A request still held after {@link #LONGEST_HOLD} answers 500, so a test that forgot to
 * kill fails instead of hanging.
 */
@Provider
@Priority(HoldAfterCommit.LAST)
public class HoldAfterCommit implements ContainerResponseFilter {

  /** The request header a test sets to aim the crash. */
  public static final String HEADER = "X-Test-Fault";

  /** Its value: hold the answer after the commit, until the JVM is killed. */
  public static final String HOLD_AFTER_COMMIT = "hold-after-commit";

  /** How long a request is held at most. */
  static final Duration LONGEST_HOLD = Duration.ofMinutes(5);

  /** The lowest priority, so the last response filter to run. */
  static final int LAST = 1;

  private static final Logger LOG = Logger.getLogger(HoldAfterCommit.class.getName());

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (!HOLD_AFTER_COMMIT.equals(request.getHeaderString(HEADER))) {
      return;
    }
    boolean firstSuccess =
        request.getHeaderString("Idempotency-Key") != null
            && response.getStatusInfo().getFamily() == Family.SUCCESSFUL
            && response.getHeaderString("Idempotent-Replayed") == null;
    if (!firstSuccess) {
      // A refusal or a replay: nothing was committed by this request, so there is nothing to aim
      // at.
      return;
    }
    int status = transactionStatus();
    if (status != Status.STATUS_NO_TRANSACTION) {
      // Still inside a transaction: a kill here would be a crash before the commit, which is not
      // what the test asks for. Answer 500 so that it fails saying so.
      throw new IllegalStateException(
          HOLD_AFTER_COMMIT + " reached with a JTA transaction still open (status " + status + ")");
    }
    LOG.warning(
        () ->
            HOLD_AFTER_COMMIT
                + ": holding the answer of "
                + request.getMethod()
                + " "
                + request.getUriInfo().getPath()
                + " answered "
                + response.getStatus()
                + " (JTA status "
                + status
                + ", no transaction; Idempotency-Key-Expires "
                + response.getHeaderString("Idempotency-Key-Expires")
                + ")");
    try {
      Thread.sleep(LONGEST_HOLD.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new IllegalStateException(
        HOLD_AFTER_COMMIT + ": held " + LONGEST_HOLD + " and the JVM was not killed");
  }

  /** The status of the JTA transaction on this thread ({@link Status}). */
  private static int transactionStatus() {
    try {
      TransactionSynchronizationRegistry transactions =
          InitialContext.doLookup("java:comp/TransactionSynchronizationRegistry");
      return transactions.getTransactionStatus();
    } catch (NamingException e) {
      throw new IllegalStateException("cannot see the JTA transaction of this request", e);
    }
  }
}
