package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shared new-key limit's bucket of a tenant goes with the retention run once it is full again
 * (docs/scaling.md, "The new-key limit of the cluster"), through the server's own pool and login,
 * and the next new key starts a new one. Each database deletes with statements of its own, so it
 * runs on every database. alice's limit is the default, far above what any test takes, so her
 * bucket starting full again changes no other test.
 */
class NewKeyBucketRetentionIT {

  @Test
  void aBucketFullAgain_goesWithTheRetentionRun_andTheNextNewKeyStartsANewOne() {
    assertThat(createOrder("alice", newKey(), orderBody(newSku(), 1, 1)).statusCode())
        .isEqualTo(201);
    assertThat(createOrder("bob", newKey(), orderBody(newSku(), 1, 1)).statusCode())
        .isEqualTo(201); // a bucket that is still refilling: it must stay
    String alices = "5:alice\norders.create\n%"; // the bucket's id: her scope, then the limit
    long now = System.currentTimeMillis();
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_new_key_bucket WHERE id LIKE ? AND expires_at > ?",
                alices,
                now))
        .as("alice's bucket, written with the time it is full again")
        .isEqualTo(1);
    List<String> othersRefilling =
        ShopDatabase.texts(
            "SELECT id FROM idempotency_new_key_bucket WHERE id NOT LIKE ? AND expires_at > ?",
            alices,
            now + 30_000);
    assertThat(othersRefilling).anyMatch(id -> id.startsWith("3:bob\n"));
    // As it stands once full again and a minute past: what the run may delete.
    assertThat(
            ShopDatabase.update(
                "UPDATE idempotency_new_key_bucket SET expires_at = ? WHERE id LIKE ?",
                now - 1_000,
                alices))
        .isEqualTo(1);

    Response purge = ShopApi.purgeNow();
    assertThat(purge.statusCode()).as(purge.asString()).isEqualTo(200);

    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_new_key_bucket WHERE id LIKE ?", alices))
        .as("alice's bucket, full again, is gone")
        .isZero();
    // The operator's own request may have started a bucket of its own meanwhile.
    assertThat(ShopDatabase.texts("SELECT id FROM idempotency_new_key_bucket"))
        .as("buckets still refilling stay")
        .containsAll(othersRefilling);
    assertThat(createOrder("alice", newKey(), orderBody(newSku(), 1, 1)).statusCode())
        .isEqualTo(201);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM idempotency_new_key_bucket WHERE id LIKE ? AND expires_at > ?",
                alices,
                System.currentTimeMillis()))
        .isEqualTo(1);
  }
}
