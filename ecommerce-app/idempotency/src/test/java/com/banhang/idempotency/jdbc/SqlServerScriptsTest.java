package com.banhang.idempotency.jdbc;

import static com.banhang.idempotency.jdbc.SqlServerScripts.indexOf;
import static com.banhang.idempotency.jdbc.SqlServerScripts.parse;
import static com.banhang.idempotency.jdbc.SqlServerScripts.withoutComments;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SQL Server scripts, read offline by Flyway's own SQL Server parser (the one that splits them
 * into batches at start-up), since no SQL Server runs where this project is built. This proves that
 * Flyway can split them and that V5 is complete; it does not prove that SQL Server accepts them
 * (docs/sqlserver.md says what was reviewed by hand instead).
 */
class SqlServerScriptsTest {

  private static final Path DIR = Path.of(System.getProperty("sql.dir", "../../sql"), "sqlserver");

  /** Every script's batches, by file name, in version order. */
  private static final Map<String, List<String>> BATCHES = new LinkedHashMap<>();

  @BeforeAll
  static void parseEveryScript() throws Exception {
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path file :
          files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).toList()) {
        BATCHES.put(file.getFileName().toString(), parse(file));
      }
    }
    // Version order, not name order: V10 comes after V9.
    List<Map.Entry<String, List<String>>> sorted = new ArrayList<>(BATCHES.entrySet());
    sorted.sort((a, b) -> Integer.compare(version(a.getKey()), version(b.getKey())));
    BATCHES.clear();
    sorted.forEach(e -> BATCHES.put(e.getKey(), e.getValue()));
  }

  @Test
  void everyScript_parsesIntoBatches_andModulesStartTheirBatch() {
    assertThat(BATCHES).containsKeys("V1__idempotency_record.sql", "V5__sqlserver_readiness.sql");
    BATCHES.forEach(
        (file, batches) -> {
          assertThat(batches).as(file).isNotEmpty();
          for (String batch : batches) {
            // CREATE [OR ALTER] PROCEDURE / TRIGGER / FUNCTION must be the first statement of its
            // batch.
            if (Pattern.compile(
                    "(?i)\\bCREATE\\s+(OR\\s+ALTER\\s+)?(PROCEDURE|TRIGGER|FUNCTION)\\b")
                .matcher(batch)
                .find()) {
              assertThat(withoutComments(batch).strip())
                  .as(file + ": a module is alone at the head of its batch")
                  .matches("(?is)^CREATE\\s+(OR\\s+ALTER\\s+)?(PROCEDURE|TRIGGER|FUNCTION)\\b.*");
            }
          }
        });
  }

  @Test
  void v5_recreatesEveryKeyAndIndexItDrops_afterChangingTheColumns() {
    List<String> batches = BATCHES.get("V5__sqlserver_readiness.sql");
    int drops = indexOf(batches, "DROP CONSTRAINT");
    int alters = indexOf(batches, "ALTER COLUMN");
    int creates = indexOf(batches, "ADD CONSTRAINT");
    assertThat(drops).isLessThan(alters);
    assertThat(alters).isLessThan(creates);

    String script = String.join("\n", batches);
    Set<String> dropped =
        names(script, "(?i)DROP\\s+CONSTRAINT\\s+(\\w+)", "(?i)DROP\\s+INDEX\\s+(\\w+)");
    Set<String> created =
        names(
            script,
            "(?i)ADD\\s+CONSTRAINT\\s+(\\w+)",
            "(?i)CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+(\\w+)");
    assertThat(dropped).isNotEmpty();
    assertThat(created).isEqualTo(dropped);
  }

  @Test
  void v5_givesEveryIdComparedWithAJavaString_theTypeTheDriverSends() {
    // mssql-jdbc sends String parameters as nvarchar (docs/sqlserver.md): these columns are
    // compared with EclipseLink's parameters and must not need a conversion.
    String script = String.join("\n", BATCHES.get("V5__sqlserver_readiness.sql"));
    Map<String, String> altered = new LinkedHashMap<>();
    Matcher m =
        Pattern.compile(
                "(?i)ALTER\\s+TABLE\\s+dbo\\.(\\w+)\\s+ALTER\\s+COLUMN\\s+(\\w+)\\s+([^;]+);")
            .matcher(script);
    while (m.find()) {
      altered.put(m.group(1) + "." + m.group(2), m.group(3).trim());
    }
    assertThat(altered)
        .containsOnlyKeys(
            "shop_order.id",
            "order_line.order_id",
            "payment.id",
            "payment.order_id",
            "payment.active_order_id",
            "payment.idempotency_key");
    assertThat(altered.values())
        .allSatisfy(
            type ->
                assertThat(type)
                    .matches("(?i)nvarchar\\(\\d+\\) COLLATE Latin1_General_100_BIN2 (NOT )?NULL"));
  }

  @Test
  void latestClaimProcedure_refusesExplicitAndImplicitTransactions() {
    String procedure = null;
    for (List<String> batches : BATCHES.values()) {
      for (String batch : batches) {
        if (batch.matches(
            "(?is).*CREATE\\s+OR\\s+ALTER\\s+PROCEDURE\\s+dbo\\.usp_idempotency_claim\\b.*")) {
          procedure = withoutComments(batch);
        }
      }
    }
    assertThat(procedure).isNotNull();
    assertThat(procedure)
        .containsPattern(
            "IF\\s+@@TRANCOUNT\\s*>\\s*0\\s+OR\\s+\\(@@OPTIONS\\s*&\\s*2\\)\\s*=\\s*2\\s+THROW");
    // The guard comes before the procedure's own transaction.
    assertThat(procedure.indexOf("@@OPTIONS")).isLessThan(procedure.indexOf("BEGIN TRANSACTION"));
    // As many parameters as SqlServerIdempotencyStore binds.
    String header = procedure.substring(0, procedure.indexOf("\nAS\n"));
    assertThat(Pattern.compile("(?m)^\\s*@\\w+\\s+\\w+").matcher(header).results().count())
        .isEqualTo(7);
  }

  @Test
  void latestClaimProcedures_takeTheKeysOwnLock_beforeReadingIt() {
    for (String name : List.of("usp_idempotency_claim", "usp_idempotency_claim_in_transaction")) {
      String procedure = latestProcedure(name);
      assertThat(procedure)
          .as(name)
          .containsPattern(
              "(?is)sp_getapplock\\s+@Resource\\s*=\\s*@lock_name\\s*,\\s*@LockMode\\s*=\\s*'Exclusive'"
                  + "\\s*,\\s*@LockOwner\\s*=\\s*'Transaction'");
      // The lock is taken before the row is read, and a lock not granted is the error that the
      // store turns into "key busy".
      assertThat(procedure.indexOf("sp_getapplock"))
          .as(name)
          .isLessThan(procedure.indexOf("UPDLOCK"));
      assertThat(procedure)
          .as(name)
          .containsPattern(
              "IF\\s+@granted\\s*<\\s*0\\s+THROW\\s+"
                  + SqlServerIdempotencyStore.KEY_LOCK_TIMEOUT
                  + "\\b");
    }
  }

  @Test
  void claimInTheOperationsTransaction_holdsItsKeyNotAKeyRange() {
    // HOLDLOCK (SERIALIZABLE) on a key without a row locks the gap up to the next key; held for a
    // whole business transaction, new keys of every tenant in that gap would wait for each other.
    assertThat(latestProcedure("usp_idempotency_claim_in_transaction"))
        .doesNotContainPattern("(?i)HOLDLOCK|SERIALIZABLE")
        .contains("WITH (UPDLOCK)");
    // The claim committed on its own keeps its serializable read: its range lock lasts only its own
    // short transaction and makes insert-if-absent atomic among such claims.
    assertThat(latestProcedure("usp_idempotency_claim")).contains("WITH (UPDLOCK, HOLDLOCK)");
  }

  @Test
  void latestInTransactionClaim_opensTheCallersImplicitTransaction_beforeItAsksForTheLock() {
    String procedure = latestProcedure("usp_idempotency_claim_in_transaction");
    int opener =
        find(
            procedure,
            "IF\\s+@@TRANCOUNT\\s*=\\s*0\\s+SELECT\\s+@\\w+\\s*=\\s*\\w+\\s+FROM\\s+dbo\\.");
    int check = find(procedure, "IF\\s+@@TRANCOUNT\\s*=\\s*0\\s+THROW\\s+50003");
    assertThat(opener).isLessThan(check);
    assertThat(check).isLessThan(procedure.indexOf("sp_getapplock"));
  }

  @Test
  void latestKeyLockName_prefixesEveryPartWithItsLength_andFitsSpGetapplock() {
    String function =
        latest("(?is).*CREATE\\s+OR\\s+ALTER\\s+FUNCTION\\s+dbo\\.idempotency_key_lock\\b.*");
    assertThat(function).containsPattern("RETURNS\\s+nvarchar\\(255\\)");
    assertThat(function).contains("HASHBYTES('SHA2_256'");
    for (String part : List.of("@tenant_id", "@operation", "@idempotency_key")) {
      assertThat(function).contains("DATALENGTH(" + part + ")");
    }
  }

  @Test
  void noScript_asksForAPageOfZeroRows() {
    // SQL Server refuses FETCH NEXT 0 ROWS (at least one row), where PostgreSQL and H2 accept it.
    BATCHES.forEach(
        (file, batches) ->
            assertThat(withoutComments(String.join("\n", batches)))
                .as(file)
                .doesNotContainPattern("(?i)FETCH\\s+(NEXT|FIRST)\\s+0\\s+ROWS?"));
  }

  @Test
  void fingerprint_isAVarcharInABinaryCollation_soThatNothingPads() {
    String script = withoutComments(String.join("\n", BATCHES.get("V10__claim_locks_the_key.sql")));
    assertThat(script)
        .containsPattern(
            "(?i)ALTER\\s+COLUMN\\s+request_hash\\s+varchar\\(64\\)\\s+COLLATE\\s+Latin1_General_100_BIN2"
                + "\\s+NOT\\s+NULL");
  }

  /** The last definition of a procedure, without comments. */
  private static String latestProcedure(String name) {
    return latest("(?is).*CREATE\\s+OR\\s+ALTER\\s+PROCEDURE\\s+dbo\\." + name + "\\b.*");
  }

  private static String latest(String batchPattern) {
    String found = null;
    for (List<String> batches : BATCHES.values()) {
      for (String batch : batches) {
        if (batch.matches(batchPattern)) {
          found = withoutComments(batch);
        }
      }
    }
    assertThat(found).as(batchPattern).isNotNull();
    return found;
  }

  private static int find(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex).isTrue();
    return m.start();
  }

  private static int version(String file) {
    return Integer.parseInt(file.substring(1, file.indexOf("__")));
  }

  private static Set<String> names(String script, String... patterns) {
    Set<String> names = new TreeSet<>();
    String sql = withoutComments(script);
    for (String pattern : patterns) {
      Pattern.compile(pattern).matcher(sql).results().forEach(r -> names.add(r.group(1)));
    }
    return names;
  }

  /**
   * The retention by partition (V22) empties an expired day only in the transaction that copied its
   * processing rows aside first and puts them back after, before the merge and the commit: a
   * processing key is never dropped with its day. Text order, read offline: written, not run.
   */
  @Test
  void partitionRetention_keepsTheDaysProcessingRows_inTheTruncatesTransaction() {
    List<String> batches = BATCHES.get("V22__idempotency_record_partitioned.sql");
    String procedure =
        withoutComments(batches.get(indexOf(batches, "usp_idempotency_partition_retention")));
    int begin = procedure.indexOf("BEGIN TRANSACTION");
    int copy = procedure.indexOf("INSERT INTO #kept");
    int truncate = procedure.indexOf("TRUNCATE TABLE dbo.idempotency_record WITH (PARTITIONS (2))");
    int back = procedure.indexOf("INSERT INTO dbo.idempotency_record SELECT * FROM #kept");
    int merge = procedure.indexOf("MERGE RANGE");
    int commit = procedure.indexOf("COMMIT TRANSACTION");
    assertThat(List.of(begin, copy, truncate, back, merge, commit)).doesNotContain(-1).isSorted();
    assertThat(procedure.substring(copy, truncate))
        .contains("WITH (TABLOCKX, HOLDLOCK)")
        .contains("status = 'PROCESSING'");
  }
}
