package com.banhang.shop.admin.application;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * "Reconcile every row matching this filter" (docs/operations.md, "Stuck operations"): a job on a
 * managed thread, never inside the page's request, that reconciles each matching payments.charge
 * key in turn through {@link OperatorActions#reconcile} (so each key is audited as an operator's
 * reconcile, under the operator who started the job) and reports its progress to whoever listens.
 * The jobs of this node are kept until the node stops, so the results stay readable after the page
 * that started one is gone.
 */
@ApplicationScoped
public class BulkReconciliation {

  /** At most this many keys per job: the rest wait for the next job or the scheduled runs. */
  public static final int MAX_KEYS = 5_000;

  private static final Logger LOG = Logger.getLogger(BulkReconciliation.class.getName());
  private static final int PAGE = 500;

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService managedExecutor;

  @Inject StuckOperations stuck;
  @Inject OperatorActions actions;

  /** Where the jobs run: the managed executor, or the caller's choice in a test. */
  Executor executor;

  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Job> jobs = new ConcurrentHashMap<>();

  /**
   * Starts a job over the payments.charge keys {@code filter} matches now (the listing is read
   * first, then reconciled, so keys settled on the way do not shift what is read). {@code progress}
   * is told after each key and at the end, on the job's thread.
   */
  public JobView start(String operator, StuckFilter filter, Consumer<JobView> progress) {
    StuckFilter charges =
        new StuckFilter(
            filter.tenant(),
            StuckOperations.PAYMENTS_CHARGE,
            filter.lastCheck(),
            filter.minAge(),
            filter.claimedFrom(),
            filter.claimedBefore(),
            null);
    Job job = new Job(ids.incrementAndGet(), operator, Instant.now());
    jobs.put(job.id, job);
    Executor runOn = executor != null ? executor : managedExecutor;
    runOn.execute(() -> run(job, charges, progress));
    return job.view();
  }

  public Optional<JobView> find(long id) {
    return Optional.ofNullable(jobs.get(id)).map(Job::view);
  }

  private void run(Job job, StuckFilter filter, Consumer<JobView> progress) {
    try {
      List<KeyRef> keys = new ArrayList<>();
      for (int offset = 0; keys.size() < MAX_KEYS; offset += PAGE) {
        List<StuckOperation> page =
            stuck.page(filter, offset, Math.min(PAGE, MAX_KEYS - keys.size()));
        page.forEach(row -> keys.add(row.ref()));
        if (page.size() < PAGE) {
          break;
        }
      }
      job.started(keys.size());
      tell(progress, job);
      for (KeyRef key : keys) {
        ActionResult result = actions.reconcile(job.operator, List.of(key));
        job.done(key, result);
        tell(progress, job);
      }
      job.finished(null);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "bulk reconciliation " + job.id + " failed", e);
      job.finished(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    tell(progress, job);
  }

  private static void tell(Consumer<JobView> progress, Job job) {
    try {
      progress.accept(job.view());
    } catch (RuntimeException e) {
      // The page may be gone; the job goes on and its results stay readable.
      LOG.log(Level.FINE, "bulk reconciliation progress not shown", e);
    }
  }

  /**
   * What a job has done so far.
   *
   * @param total keys it will reconcile, -1 while it is still reading them
   * @param findings how many keys ended in each result (the findings in the result messages)
   * @param lines one line per key that was not settled, with what it answered
   * @param failure why the job stopped early, or null
   */
  public record JobView(
      long id,
      String operator,
      Instant startedAt,
      Instant finishedAt,
      int total,
      int done,
      Map<String, Integer> findings,
      List<String> lines,
      String failure) {

    public boolean running() {
      return finishedAt == null;
    }
  }

  private static final class Job {
    final long id;
    final String operator;
    final Instant startedAt;
    private int total = -1;
    private int done;
    private final Map<String, Integer> findings = new TreeMap<>();
    private final List<String> lines = new ArrayList<>();
    private Instant finishedAt;
    private String failure;

    Job(long id, String operator, Instant startedAt) {
      this.id = id;
      this.operator = operator;
      this.startedAt = startedAt;
    }

    synchronized void started(int keys) {
      total = keys;
    }

    synchronized void done(KeyRef key, ActionResult result) {
      done++;
      String finding = findingOf(result);
      findings.merge(finding, 1, Integer::sum);
      if (!"CAPTURED".equals(finding)
          && !"DECLINED".equals(finding)
          && !"RELEASED".equals(finding)) {
        lines.add(key.tenant() + " " + key.key() + ": " + result.status() + " " + result.message());
      }
    }

    synchronized void finished(String why) {
      failure = why;
      finishedAt = Instant.now();
    }

    synchronized JobView view() {
      return new JobView(
          id,
          operator,
          startedAt,
          finishedAt,
          total,
          done,
          Map.copyOf(findings),
          List.copyOf(lines),
          failure);
    }

    /** "reconciled 1 key: CAPTURED=1" gives CAPTURED; a refusal gives its status. */
    private static String findingOf(ActionResult result) {
      String message = result.message();
      int colon = message.indexOf(": ");
      int equals = message.indexOf('=', colon + 1);
      if (colon >= 0 && equals > colon) {
        return message.substring(colon + 2, equals);
      }
      return result.status().name();
    }
  }
}
