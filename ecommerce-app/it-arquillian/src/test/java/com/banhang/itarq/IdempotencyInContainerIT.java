package com.banhang.itarq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.InContainerAccess;
import com.banhang.idempotency.internal.RequestLifecycle;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.itarq.app.ClaimObserver;
import com.banhang.itarq.app.FailureSwitch;
import com.banhang.itarq.app.WidgetResource;
import com.banhang.itarq.app.Widgets;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import javax.naming.InitialContext;
import org.assertj.core.api.Assertions;
import org.erdtman.jcs.JsonCanonicalizer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The idempotency library inside a small Jakarta EE application of its own (package
 * com.banhang.itarq.app), on a Liberty server that Arquillian starts. Every test but the one marked
 * {@link RunAsClient} runs INSIDE the server (servlet protocol): it sees the rows the library
 * wrote, the CDI beans and the JTA transaction, which a black-box HTTP test cannot.
 */
@ExtendWith(ArquillianExtension.class)
class IdempotencyInContainerIT {

  /** The library's tenant when the application has no security. */
  private static final String TENANT = "anonymous";

  private static final String CREATE = "widgets.create";
  private static final String CREATE_FAILING = "widgets.create-failing";
  private static final String REPLAYED = "Idempotent-Replayed";

  @Deployment
  static WebArchive deployment() {
    return ShrinkWrap.create(WebArchive.class, "idem-it.war")
        .addPackage(WidgetResource.class.getPackage())
        .addClass(InContainerAccess.class)
        // The library as it is built, with its runtime dependencies (canonical JSON, Bucket4j
        // for the new-key limit); AssertJ for the in-container assertions (the JUnit jars are
        // added by Arquillian itself).
        .addAsLibraries(
            jarOf(Idempotent.class),
            jarOf(JsonCanonicalizer.class),
            jarOf(io.github.bucket4j.Bucket.class),
            jarOf(Assertions.class))
        .addAsResource("schema/V1__idempotency_record.sql")
        .addAsResource("schema/V4__operator_console.sql")
        .addAsResource(
            "deployment/microprofile-config.properties", "META-INF/microprofile-config.properties")
        .addAsWebInfResource("deployment/beans.xml", "beans.xml");
  }

  /**
   * The jar on the test class path that holds {@code type}: the installed jar, or the module's
   * classes folder when the reactor did not package it.
   */
  private static JavaArchive jarOf(Class<?> type) {
    File location;
    try {
      location = new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    if (location.isDirectory()) {
      return ShrinkWrap.create(ExplodedImporter.class, type.getSimpleName() + "-classes.jar")
          .importDirectory(location)
          .as(JavaArchive.class);
    }
    return ShrinkWrap.createFromZipFile(JavaArchive.class, location);
  }

  // In-container: enriched by CDI inside the server.
  @Inject IdempotencyKeys records;
  @Inject IdempotencyStore store;
  @Inject RequestLifecycle requestState;
  @Inject WidgetResource widgetResource;
  @Inject Widgets widgets;
  @Inject FailureSwitch failures;
  @Inject ClaimObserver observer;
  @Inject HttpServletRequest servletRequest;

  // 1. The completed key and the business row commit together; a replay is the same bytes.
  @Test
  void completedKeyAndWidgetRowCommitTogether_andReplayIsByteIdentical() throws Exception {
    String key = newKey();
    String name = "widget-" + key;

    HttpResponse<byte[]> first = post("widgets", key, widgetBody(name));

    assertThat(first.statusCode()).as(text(first)).isEqualTo(201);
    assertThat(first.headers().firstValue(REPLAYED)).isEmpty();
    IdempotencyRecord record = record(CREATE, key);
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(record.attempt()).isEqualTo(1);
    assertThat(record.response().status()).isEqualTo(201);
    assertThat(record.response().body()).isEqualTo(first.body());
    assertThat(widgets.countByName(name)).isEqualTo(1);
    JsonObject created = Json.createReader(new ByteArrayInputStream(first.body())).readObject();
    assertThat(widgets.nameOf(created.getString("id"))).contains(name);

    HttpResponse<byte[]> replay = post("widgets", key, widgetBody(name));

    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(replay.headers().firstValue(REPLAYED)).contains("true");
    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(widgets.countByName(name)).isEqualTo(1);
    assertThat(record(CREATE, key).attempt()).isEqualTo(1);
  }

  // 2. A failure after the business write, inside the transaction: nothing stays, the key is
  //    released, and a retry with the same key runs again.
  @Test
  void failureAfterTheWrite_rollsBackTheRowAndTheClaim_andTheRetryRunsAgain() throws Exception {
    String key = newKey();
    String name = "flaky-" + key;
    failures.failNextAfterWrite();

    HttpResponse<byte[]> failed = post("widgets", key, widgetBody(name));

    assertThat(failed.statusCode()).as(text(failed)).isEqualTo(500);
    assertThat(widgets.countByName(name)).isZero();
    // The key was claimed inside the method's transaction (idempotency.local-claim's default):
    // the rollback took the claim with the row, so nothing is left to release.
    assertThat(records.find(TENANT, CREATE, key)).isEmpty();

    HttpResponse<byte[]> retry = post("widgets", key, widgetBody(name));

    assertThat(retry.statusCode()).as(text(retry)).isEqualTo(201);
    assertThat(retry.headers().firstValue(REPLAYED)).isEmpty();
    IdempotencyRecord completed = record(CREATE, key);
    assertThat(completed.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(completed.attempt()).isEqualTo(1);
    assertThat(completed.response().body()).isEqualTo(retry.body());
    assertThat(widgets.countByName(name)).isEqualTo(1);
  }

  @Test
  void operationThatAlwaysFailsAfterItsWrite_leavesNoRowAndNeverACompletedKey() throws Exception {
    String key = newKey();
    String name = "doomed-" + key;

    for (int attempt = 1; attempt <= 2; attempt++) {
      HttpResponse<byte[]> failed = post("widgets/failing", key, widgetBody(name));

      assertThat(failed.statusCode()).as(text(failed)).isEqualTo(500);
      assertThat(failed.headers().firstValue(REPLAYED)).isEmpty();
      assertThat(records.find(TENANT, CREATE_FAILING, key))
          .as("attempt %d rolled back with its claim: every retry runs again", attempt)
          .isEmpty();
      assertThat(widgets.countByName(name)).isZero();
    }
  }

  /**
   * The transaction rolls back although the method returned normally (rollback-only): the claim and
   * the completion were written in that transaction, so they go with the row. Would the interceptor
   * complete the key outside the method's transaction, the key would stay COMPLETED with no row
   * behind it. The client is told the truth: a 500 problem, not the 201 the method returned for a
   * widget that was never stored.
   */
  @Test
  void transactionRolledBackWithoutAnException_leavesNoRowAndNoCompletedKey() throws Exception {
    String key = newKey();
    String name = "rollback-only-" + key;
    failures.rollbackOnlyNext();

    HttpResponse<byte[]> first = post("widgets", key, widgetBody(name));

    assertThat(first.statusCode()).as(text(first)).isEqualTo(500);
    assertThat(text(first)).contains("operation-rolled-back");
    assertThat(widgets.countByName(name)).isZero();
    assertThat(records.find(TENANT, CREATE, key)).isEmpty();

    HttpResponse<byte[]> retry = post("widgets", key, widgetBody(name));

    assertThat(retry.statusCode()).as(text(retry)).isEqualTo(201);
    assertThat(retry.headers().firstValue(REPLAYED)).isEmpty();
    assertThat(record(CREATE, key).status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(record(CREATE, key).attempt()).isEqualTo(1);
    assertThat(widgets.countByName(name)).isEqualTo(1);
  }

  // 3. The interceptor completes the key inside the CALLER's transaction.
  @Test
  void completionJoinsTheCallersTransaction_andARollbackUndoesBothWrites() throws Exception {
    String key = newKey();
    String name = "rolled-back-" + key;
    ClaimedKey claim = claimAsTheFilterWould(CREATE, key);
    UserTransaction transaction = userTransaction();

    transaction.begin();
    try {
      Response response = widgetResource.create(widgetJson(name));

      // Inside the transaction both writes are there...
      assertThat(response.getStatus()).isEqualTo(201);
      IdempotencyRecord inside = record(CREATE, key);
      assertThat(inside.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
      assertThat(inside.response().body()).isEqualTo((byte[]) response.getEntity());
      assertThat(widgets.countByName(name)).isEqualTo(1);
      assertThat(InContainerAccess.completed(requestState)).isNotNull();
      assertThat(transaction.getStatus()).isEqualTo(Status.STATUS_ACTIVE);
    } finally {
      transaction.rollback();
    }

    // ...and the caller's rollback takes both away: the key is back to its committed claim.
    assertThat(widgets.countByName(name)).isZero();
    IdempotencyRecord after = record(CREATE, key);
    assertThat(after.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(after.attempt()).isEqualTo(1);
    assertThat(after.response()).isNull();
    assertThat(InContainerAccess.completed(requestState))
        .as("the transaction synchronization forgets a rolled-back completion")
        .isNull();
    assertThat(records.release(claim)).as("the claim is still owned").isTrue();
  }

  @Test
  void completionJoinsTheCallersTransaction_andItsCommitKeepsBothWrites() throws Exception {
    String key = newKey();
    String name = "committed-" + key;
    claimAsTheFilterWould(CREATE, key);
    UserTransaction transaction = userTransaction();

    transaction.begin();
    byte[] sent;
    try {
      sent = (byte[]) widgetResource.create(widgetJson(name)).getEntity();
    } catch (RuntimeException | Error e) {
      transaction.rollback();
      throw e;
    }
    transaction.commit();

    IdempotencyRecord record = record(CREATE, key);
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(record.response().body()).isEqualTo(sent);
    assertThat(widgets.countByName(name)).isEqualTo(1);
    assertThat(InContainerAccess.completed(requestState)).isNotNull();
  }

  // The claim commits on its own, before the operation: inside a JTA transaction the store refuses
  // it and writes nothing (docs/sqlserver.md). Liberty's connection handle answers
  // getAutoCommit() == true inside the transaction, so a check of the connection alone passes.
  @Test
  void claimInsideAJtaTransaction_isRefused_andWritesNothing() throws Exception {
    String operation = "widgets.in-transaction";
    String key = newKey();
    UserTransaction transaction = userTransaction();

    transaction.begin();
    try {
      assertThatThrownBy(() -> store.claim(claimRequest(operation, key)))
          .isInstanceOf(com.banhang.idempotency.IdempotencyStoreUnavailableException.class)
          .hasMessageContaining("outside any transaction");
    } finally {
      transaction.rollback();
    }
    assertThat(records.find(TENANT, operation, key)).isEmpty();
    assertThat(store.claim(claimRequest(operation, key)).won())
        .as("outside the transaction the same claim is made")
        .isTrue();
  }

  // 4. Fencing: a stale claim can neither complete nor release the key; the new owner can.
  @Test
  void staleClaimCannotCompleteTheKey_theNewOwnerCan() {
    String operation = "widgets.fencing";
    String key = newKey();
    ClaimResult first = store.claim(claimRequest(operation, key));
    assertThat(first.won()).isTrue();
    ClaimedKey stale = first.record().claimedKey();
    assertThat(stale.attempt()).isEqualTo(1);
    assertThat(records.release(stale)).isTrue();

    ClaimResult second = store.claim(claimRequest(operation, key));
    assertThat(second.won()).isTrue();
    ClaimedKey current = second.record().claimedKey();
    assertThat(current.attempt()).isEqualTo(2);

    assertThatThrownBy(() -> records.complete(stale, jsonResponse("{\"by\":\"stale\"}")))
        .isInstanceOfSatisfying(
            ClaimLostException.class, lost -> assertThat(lost.claim()).isEqualTo(stale));
    assertThat(records.release(stale)).isFalse();
    IdempotencyRecord untouched = record(operation, key);
    assertThat(untouched.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(untouched.attempt()).isEqualTo(2);
    assertThat(untouched.response()).isNull();

    StoredResponse stored = records.complete(current, jsonResponse("{\"by\":\"current\"}"));

    IdempotencyRecord completed = record(operation, key);
    assertThat(completed.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(completed.attempt()).isEqualTo(2);
    assertThat(completed.response()).isEqualTo(stored);
    assertThat(completed.response().body())
        .isEqualTo("{\"by\":\"current\"}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> records.complete(current, jsonResponse("{\"by\":\"again\"}")))
        .as("a completed key is final")
        .isInstanceOf(ClaimLostException.class);
  }

  @Test
  void staleOwnersBusinessWriteIsRolledBackWithItsFailedCompletion() {
    String key = newKey();
    String name = "stale-" + key;
    ClaimedKey stale = claimAsTheFilterWould(CREATE, key);
    assertThat(records.release(stale)).isTrue();
    ClaimedKey current = store.claim(claimRequest(CREATE, key)).record().claimedKey();
    assertThat(current.attempt()).isEqualTo(2);

    // The stale owner runs the method in its own @Transactional transaction.
    assertThatThrownBy(() -> widgetResource.create(widgetJson(name)))
        .isInstanceOf(ClaimLostException.class);

    assertThat(widgets.countByName(name)).as("the stale owner's row never commits").isZero();
    IdempotencyRecord record = record(CREATE, key);
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(record.attempt()).isEqualTo(2);
    assertThat(records.release(current)).isTrue();
  }

  // A local operation's key is claimed inside the method's transaction (idempotency.local-claim's
  // default): while the method runs, another transaction sees no committed row for it; the key
  // is written once, completed, and commits with the business row.
  @Test
  void claimIsHeldInsideTheMethodsTransaction_invisibleToOthersUntilItCommitsWithTheRow()
      throws Exception {
    String key = newKey();
    String name = "observed-" + key;

    HttpResponse<byte[]> created = post("widgets/observed", key, widgetBody(name));

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(observer.seenBy(key))
        .isEqualTo("in a transaction: true; claim seen by another transaction: no committed row");
    assertThat(record("widgets.create-observed", key).status())
        .isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(widgets.countByName(name)).isEqualTo(1);
  }

  // JAX-RS binds and validates the body before it invokes the method, so before the claim: a body
  // that fails writes no row for its key, and the fixed body then runs under the same key.
  @Test
  void bodyFailingBeanValidationOrBinding_is400_andNothingIsWrittenForTheKey() throws Exception {
    String key = newKey();
    String operation = "widgets.create-validated";

    HttpResponse<byte[]> invalid = post("widgets/validated", key, "{\"name\":\"\",\"size\":1}");
    HttpResponse<byte[]> wrongType =
        post("widgets/validated", key, "{\"name\":\"ok\",\"size\":\"large\"}");

    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(wrongType.statusCode()).isEqualTo(400);
    assertThat(invalid.headers().firstValue("Idempotency-Key-Expires")).isPresent();
    assertThat(records.find(TENANT, operation, key)).isEmpty();

    HttpResponse<byte[]> fixed =
        post(
            "widgets/validated",
            key,
            "{\"name\":\"validated-" + key.substring(0, 8) + "\",\"size\":1}");
    assertThat(fixed.statusCode()).isEqualTo(201);
    assertThat(record(operation, key).status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
  }

  // Client side: what any HTTP client sees of the same application.
  @Test
  @RunAsClient
  void clientSide_replayIsByteIdentical_andAnotherBodyUnderTheKeyIs422(@ArquillianResource URL base)
      throws Exception {
    String key = newKey();
    URI widgetsUri = base.toURI().resolve("api/widgets");
    String body = widgetBody("client-" + key);

    HttpResponse<byte[]> first = send(widgetsUri, key, body);
    HttpResponse<byte[]> replay = send(widgetsUri, key, body);
    HttpResponse<byte[]> reused = send(widgetsUri, key, widgetBody("other-" + key));
    HttpResponse<byte[]> keyless = send(widgetsUri, null, body);

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.headers().firstValue(REPLAYED)).isEmpty();
    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(replay.headers().firstValue(REPLAYED)).contains("true");
    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat(keyless.statusCode()).isEqualTo(400);
  }

  // ---------------------------------------------------------------------------------------------

  private ClaimedKey claimAsTheFilterWould(String operation, String key) {
    ClaimResult result = store.claim(claimRequest(operation, key));
    assertThat(result.won()).isTrue();
    ClaimedKey claim = result.record().claimedKey();
    InContainerAccess.claimed(requestState, claim);
    return claim;
  }

  private static ClaimRequest claimRequest(String operation, String key) {
    return new ClaimRequest(
        TENANT, operation, key, "0".repeat(64), Duration.ofSeconds(30), Duration.ofHours(1), true);
  }

  private IdempotencyRecord record(String operation, String key) {
    return records
        .find(TENANT, operation, key)
        .orElseThrow(() -> new AssertionError("no idempotency record for " + key));
  }

  private static UserTransaction userTransaction() throws Exception {
    return (UserTransaction) new InitialContext().lookup("java:comp/UserTransaction");
  }

  private static Response jsonResponse(String json) {
    return Response.status(201).type(MediaType.APPLICATION_JSON).entity(json).build();
  }

  private static String newKey() {
    return UUID.randomUUID().toString();
  }

  private static String widgetBody(String name) {
    return "{\"name\":\"" + name + "\"}";
  }

  private static JsonObject widgetJson(String name) {
    return Json.createObjectBuilder().add("name", name).build();
  }

  /** From inside the server to its own HTTP port: the request goes through the real filters. */
  private HttpResponse<byte[]> post(String path, String key, String body) throws Exception {
    URI base =
        URI.create(
            "http://localhost:"
                + servletRequest.getLocalPort()
                + servletRequest.getContextPath()
                + "/api/");
    return send(base.resolve(path), key, body);
  }

  private static HttpResponse<byte[]> send(URI uri, String key, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", MediaType.APPLICATION_JSON)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return HttpClient.newHttpClient()
        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String text(HttpResponse<byte[]> response) {
    return response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8);
  }
}
