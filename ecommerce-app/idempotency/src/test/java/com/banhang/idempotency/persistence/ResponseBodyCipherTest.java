package com.banhang.idempotency.persistence;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
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
  void bodiesStoredBeforeEncryption_stayReadable() {
    assertThat(cipher.open(BODY, "alice", "orders.create", "k1")).isEqualTo(BODY);
    assertThat(ResponseBodyCipher.NONE.seal(BODY, "a", "o", "k")).isEqualTo(BODY);
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
    IdempotencyStoreContract.migrate(dataSource, "h2");
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
}
