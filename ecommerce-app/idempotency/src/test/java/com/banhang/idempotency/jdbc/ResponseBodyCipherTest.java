package com.banhang.idempotency.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** Stored bodies encrypted at rest (docs/idempotency.md). */
class ResponseBodyCipherTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static final String OTHER_KEY =
      Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(UTF_8));
  private static final byte[] BODY = "{\"id\":\"42\",\"card\":\"pm_card_ok\"}".getBytes(UTF_8);

  private final ResponseBodyCipher cipher = ResponseBodyCipher.aesGcm(KEY);

  @Test
  void sealThenOpen_sameScope_returnsTheBody() {
    byte[] sealed = cipher.seal(BODY, "alice", "orders.create", "k1");

    assertThat(sealed).isNotEqualTo(BODY);
    assertThat(new String(sealed, UTF_8)).doesNotContain("pm_card_ok");
    assertThat(cipher.open(sealed, "alice", "orders.create", "k1")).isEqualTo(BODY);
  }

  @Test
  void open_bodyMovedToAnotherKeyOrTenant_isRefused() {
    byte[] sealed = cipher.seal(BODY, "alice", "orders.create", "k1");

    assertThatThrownBy(() -> cipher.open(sealed, "bob", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
    assertThatThrownBy(() -> cipher.open(sealed, "alice", "orders.create", "k2"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
  }

  @Test
  void open_withAnotherKeyOrNoKey_isRefused() {
    byte[] sealed = cipher.seal(BODY, "alice", "orders.create", "k1");

    assertThatThrownBy(
            () -> ResponseBodyCipher.aesGcm(OTHER_KEY).open(sealed, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
    assertThatThrownBy(() -> ResponseBodyCipher.NONE.open(sealed, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
  }

  @Test
  void sealTwice_differentCiphertexts() {
    assertThat(cipher.seal(BODY, "a", "o", "k")).isNotEqualTo(cipher.seal(BODY, "a", "o", "k"));
  }

  @Test
  void plaintextBody_readAsItIsWithoutKeys_refusedOnceAKeyIsConfigured() {
    assertThat(ResponseBodyCipher.NONE.open(BODY, "alice", "orders.create", "k1")).isEqualTo(BODY);
    assertThat(ResponseBodyCipher.NONE.seal(BODY, "a", "o", "k")).isEqualTo(BODY);

    assertThatThrownBy(() -> cipher.open(BODY, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class)
        .hasMessageContaining("not encrypted");
    assertThat(cipher.open(new byte[0], "alice", "orders.create", "k1")).isEmpty();
  }

  @Test
  void rotation_oldBodiesOpenWhileTheirKeyStaysInTheRing_newBodiesNameTheNewKey() {
    ResponseBodyCipher before = ResponseBodyCipher.keyring(Map.of("k1", KEY), "k1");
    ResponseBodyCipher rotated =
        ResponseBodyCipher.keyring(Map.of("k1", KEY, "k2", OTHER_KEY), "k2");
    ResponseBodyCipher onlyNew = ResponseBodyCipher.keyring(Map.of("k2", OTHER_KEY), "k2");
    byte[] old = before.seal(BODY, "alice", "orders.create", "k1");

    assertThat(ResponseBodyCipher.keyIdOf(old)).isEqualTo("k1");
    assertThat(rotated.open(old, "alice", "orders.create", "k1")).isEqualTo(BODY);
    byte[] fresh = rotated.seal(BODY, "alice", "orders.create", "k1");
    assertThat(ResponseBodyCipher.keyIdOf(fresh)).isEqualTo("k2");
    assertThat(onlyNew.open(fresh, "alice", "orders.create", "k1")).isEqualTo(BODY);
    assertThatThrownBy(() -> onlyNew.open(old, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class)
        .hasMessageContaining("'k1'");
  }

  @Test
  void keyIdInTheHeader_isAuthenticated() {
    // Both ids name the same key: relabelling a body must still break its tag.
    ResponseBodyCipher ring = ResponseBodyCipher.keyring(Map.of("ka", KEY, "kb", KEY), "ka");
    byte[] sealed = ring.seal(BODY, "alice", "orders.create", "k1");
    byte[] relabelled = sealed.clone();
    relabelled[6] = 'b';

    assertThat(ResponseBodyCipher.keyIdOf(relabelled)).isEqualTo("kb");
    assertThatThrownBy(() -> ring.open(relabelled, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
  }

  @Test
  void bodySealedBeforeKeyIds_opensWithTheLegacyKey() throws Exception {
    byte[] v1 = sealV1(BODY, KEY, "alice\norders.create\nk1");

    assertThat(ResponseBodyCipher.aesGcm(KEY).open(v1, "alice", "orders.create", "k1"))
        .isEqualTo(BODY);
    assertThat(
            ResponseBodyCipher.keyring(Map.of("legacy", KEY, "k2", OTHER_KEY), "k2")
                .open(v1, "alice", "orders.create", "k1"))
        .isEqualTo(BODY);
    assertThatThrownBy(
            () ->
                ResponseBodyCipher.keyring(Map.of("k2", OTHER_KEY), "k2")
                    .open(v1, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
  }

  @Test
  void truncatedOrDamagedHeaders_areRefusedNotThrownAsSomethingElse() {
    byte[] sealed = cipher.seal(BODY, "alice", "orders.create", "k1");
    for (int length = 1; length < 40; length++) {
      byte[] cut = java.util.Arrays.copyOf(sealed, length);
      assertThatThrownBy(() -> cipher.open(cut, "alice", "orders.create", "k1"))
          .isInstanceOf(IdempotencyStoreUnavailableException.class);
    }
    byte[] noId = sealed.clone();
    noId[4] = 0;
    assertThatThrownBy(() -> cipher.open(noId, "alice", "orders.create", "k1"))
        .isInstanceOf(IdempotencyStoreUnavailableException.class);
  }

  /** The format written before key ids existed: 00 'E' 'N' '1', nonce, ciphertext and tag. */
  private static byte[] sealV1(byte[] body, String base64Key, String scope) throws Exception {
    byte[] nonce = new byte[12];
    new java.security.SecureRandom().nextBytes(nonce);
    javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
    c.init(
        javax.crypto.Cipher.ENCRYPT_MODE,
        new javax.crypto.spec.SecretKeySpec(Base64.getDecoder().decode(base64Key), "AES"),
        new javax.crypto.spec.GCMParameterSpec(128, nonce));
    c.updateAAD(scope.getBytes(UTF_8));
    byte[] sealed = c.doFinal(body);
    return java.nio.ByteBuffer.allocate(4 + 12 + sealed.length)
        .put(new byte[] {0, 'E', 'N', '1'})
        .put(nonce)
        .put(sealed)
        .array();
  }

  @Test
  void keyOfAnotherLength_isRejected() {
    String short16 = Base64.getEncoder().encodeToString(new byte[16]);

    assertThatThrownBy(() -> ResponseBodyCipher.aesGcm(short16))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void store_withEncryption_keepsNoPlaintextInTheTableAndReadsItBack() throws Exception {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:cipher-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    JdbcIdempotencyStoreContract.migrate(dataSource, "h2");
    JdbcIdempotencyStore store =
        JdbcIdempotencyStore.forDataSource(dataSource).encryptingBodiesWith(cipher);
    ClaimedKey claim =
        store
            .claim(
                new ClaimRequest(
                    "alice",
                    "orders.create",
                    "k1",
                    "0".repeat(64),
                    Duration.ofMinutes(1),
                    Duration.ofHours(1),
                    true))
            .record()
            .claimedKey();

    store.complete(
        claim, new StoredResponse(201, Map.of("Content-Type", "application/json"), BODY));

    try (Connection connection = dataSource.getConnection();
        PreparedStatement read =
            connection.prepareStatement("SELECT response_body FROM idempotency_record");
        ResultSet rs = read.executeQuery()) {
      rs.next();
      assertThat(new String(rs.getBytes(1), UTF_8)).doesNotContain("pm_card_ok");
    }
    assertThat(store.find("alice", "orders.create", "k1").orElseThrow().response().body())
        .isEqualTo(BODY);
  }

  @Test
  void listings_neverOpenBodies_andOneUnreadableRowStopsNothing() throws Exception {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:cipher-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    JdbcIdempotencyStoreContract.migrate(dataSource, "h2");
    JdbcIdempotencyStore oldKey =
        JdbcIdempotencyStore.forDataSource(dataSource)
            .encryptingBodiesWith(ResponseBodyCipher.keyring(Map.of("k1", KEY), "k1"));
    JdbcIdempotencyStore plain = JdbcIdempotencyStore.forDataSource(dataSource);
    for (String key : java.util.List.of("sealed-k1", "plain")) {
      ClaimedKey claim =
          oldKey
              .claim(
                  new ClaimRequest(
                      "alice",
                      "payments.charge",
                      key,
                      "0".repeat(64),
                      Duration.ofMinutes(1),
                      Duration.ofHours(1),
                      false))
              .record()
              .claimedKey();
      (key.equals("plain") ? plain : oldKey)
          .markOutcomeUnknown(
              claim,
              new StoredResponse(409, Map.of("Content-Type", "application/problem+json"), BODY));
    }
    // After the rotation k1 was dropped from the ring too early: neither body can be opened.
    JdbcIdempotencyStore rotated =
        JdbcIdempotencyStore.forDataSource(dataSource)
            .encryptingBodiesWith(ResponseBodyCipher.keyring(Map.of("k2", OTHER_KEY), "k2"));

    var processing =
        rotated
            .administration()
            .findProcessing(
                "payments.charge", java.time.Duration.ofSeconds(-60), java.util.Set.of(), 10);
    var page =
        rotated
            .administration()
            .listProcessing(new ProcessingQuery(null, "payments.charge", null, null), 0, 10);

    assertThat(processing).hasSize(2);
    assertThat(page.rows()).hasSize(2);
    assertThat(processing.get(0).response().status()).isEqualTo(409);
    for (IdempotencyRecord record : processing) {
      assertThatThrownBy(() -> record.response().body())
          .isInstanceOf(IdempotencyStoreUnavailableException.class);
    }
    assertThat(
            JdbcIdempotencyStore.forDataSource(dataSource)
                .encryptingBodiesWith(
                    ResponseBodyCipher.keyring(Map.of("k1", KEY, "k2", OTHER_KEY), "k2"))
                .find("alice", "payments.charge", "sealed-k1")
                .orElseThrow()
                .response()
                .body())
        .isEqualTo(BODY);
  }
}
