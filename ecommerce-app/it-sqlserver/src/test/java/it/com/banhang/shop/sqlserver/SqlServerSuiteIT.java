package it.com.banhang.shop.sqlserver;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Says whether the SQL Server run happened. With SQLSERVER_JDBC_URL set, the build runs shop-web's
 * whole HTTP suite against SQL Server; this class runs first (junit-platform.properties), takes the
 * baseline that {@link SqlServerSuiteEndIT} compares the end of the run with, and proves that the
 * shop's claims go through dbo.usp_idempotency_claim. Without the variable, its tests are reported
 * skipped with the variable's name, and nothing else runs.
 */
@Order(1)
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason = SqlServer.SKIPPED)
class SqlServerSuiteIT {

  /** Taken before any other class of the run; null if this class did not run first. */
  static volatile Baseline baseline;

  record Baseline(long deadlocks, long claimExecutions) {}

  @Test
  void baseline_takenBeforeTheSuite() throws Exception {
    baseline = new Baseline(SqlServer.deadlocks(), SqlServer.claimProcedureExecutions());
    System.out.printf(
        "SQL Server baseline: %d deadlocks on the instance so far, %d claim procedure executions%n",
        baseline.deadlocks(), baseline.claimExecutions());
  }

  @Test
  void everyNewKeyRequest_isClaimedByOneProcedureCall_andAReplayIsNot() throws Exception {
    long before = SqlServer.claimProcedureExecutions();
    List<String> keys = new ArrayList<>();
    String firstBody = orderBody(newSku(), 1, 1_000);
    for (int i = 0; i < 5; i++) {
      String key = newKey();
      keys.add(key);
      Response created =
          createOrder("alice", key, i == 0 ? firstBody : orderBody(newSku(), 1, 1_000));
      assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
    }
    // A completed key is answered from the filter's read before any claim
    // (idempotency.local-claim.read-first, the default; docs/idempotency.md).
    Response replay = createOrder("alice", keys.get(0), firstBody);
    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");

    long after = SqlServer.claimProcedureExecutions();
    assertThat(after - before)
        .as("executions of the claim procedures for 5 new keys and one replay")
        .isEqualTo(5);
  }
}
