package com.banhang.shop.client;

import static com.banhang.shop.client.ScriptedShop.created;
import static com.banhang.shop.client.ScriptedShop.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.client.FileIntentStore.UnreadableIntentFile;
import com.banhang.shop.client.ScriptedShop.Received;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Intents on disk: exact bytes, atomic files, restarts, and files that cannot be read. */
class FileIntentStoreTest {

  @TempDir Path folder;

  private static Intent intent(String key, byte[] body) {
    return new Intent(
        UUID.randomUUID().toString(),
        key,
        "POST",
        "/api/v1/orders",
        Optional.of("alice"),
        body,
        FakeClock.START,
        Optional.empty());
  }

  private List<String> fileNames() throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void keepsEveryByteOfTheBodyAndEveryMemberOfTheIntent() {
    // Random bodies (invalid UTF-8 included), keys of any printable character, with or without
    // a user and an expiry, from a fixed Random so a failure repeats.
    Random random = new Random(1202);
    FileIntentStore store = IntentStore.inFolder(folder);
    List<Intent> saved = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      byte[] body = new byte[random.nextInt(2_000)];
      random.nextBytes(body);
      StringBuilder key = new StringBuilder();
      for (int c = 1 + random.nextInt(255); c > 0; c--) {
        key.append((char) (0x21 + random.nextInt(0x7E - 0x21 + 1)));
      }
      Intent intent =
          new Intent(
              UUID.randomUUID().toString(),
              key.toString(),
              "POST",
              "/api/v1/orders/o-" + i + "/payments",
              random.nextBoolean() ? Optional.of("user \"" + i + "\"\n") : Optional.empty(),
              body,
              FakeClock.START.plusMillis(i),
              random.nextBoolean()
                  ? Optional.of(FakeClock.START.plus(Duration.ofDays(7)))
                  : Optional.empty());
      store.save(intent);
      saved.add(intent);
    }

    for (Intent intent : saved) {
      assertThat(store.find(intent.id())).contains(intent);
    }
    assertThat(store.pending()).containsExactlyElementsOf(saved);
    assertThat(IntentStore.inFolder(folder).pending())
        .as("a new store over the folder, as after a restart")
        .containsExactlyElementsOf(saved);
    assertThat(store.unreadable()).isEmpty();
  }

  @Test
  void writesOneFileWithTheKeyNextToTheBodyAndNoTemporaryFileRemains() throws IOException {
    FileIntentStore store = IntentStore.inFolder(folder);
    Intent intent = intent("key-1", "{\"currency\":\"VND\"}".getBytes(StandardCharsets.UTF_8));

    store.save(intent);
    store.save(intent.withKeyExpiry(FakeClock.START.plusSeconds(60)));

    assertThat(fileNames()).containsExactly(intent.id() + ".intent");
    JsonObject file =
        Json.createReader(
                new StringReader(Files.readString(folder.resolve(intent.id() + ".intent"))))
            .readObject();
    assertThat(file.getString("idempotencyKey")).isEqualTo("key-1");
    assertThat(file.getString("method")).isEqualTo("POST");
    assertThat(file.getString("path")).isEqualTo("/api/v1/orders");
    assertThat(Base64.getDecoder().decode(file.getString("body")))
        .isEqualTo("{\"currency\":\"VND\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(file.getString("keyExpiresAt")).isEqualTo("2026-12-02T08:01:00Z");

    store.remove(intent.id());
    assertThat(fileNames()).isEmpty();
    assertThat(store.find(intent.id())).isEmpty();
  }

  @Test
  void aRestartedClientResumesTheSameIntentUnderTheSameKeyWithTheSameBytes() throws IOException {
    try (ScriptedShop shop = new ScriptedShop()) {
      // The first process: the payment's outcome is unknown at its deadline, then it "dies".
      shop.script(
          problem(504, "payment-outcome-unknown").header("Retry-After", "1"),
          problem(409, "payment-outcome-unknown").header("Retry-After", "1"),
          problem(409, "payment-outcome-unknown").header("Retry-After", "1"));
      ShopClient first = clientOver(shop, IntentStore.inFolder(folder), Duration.ofMillis(2_500));
      Result beforeRestart =
          first.payments().pay("o-1", new PaymentRequest(1_250_000, "VND", "pm_card_ok"));
      assertThat(beforeRestart).isInstanceOf(Result.OutcomeUnknown.class);

      // The second process: a new store over the same folder, a new client.
      ShopClient second = clientOver(shop, IntentStore.inFolder(folder), Duration.ofSeconds(30));
      List<Intent> pending = second.pending();
      assertThat(pending).hasSize(1);
      assertThat(pending.get(0).idempotencyKey())
          .isEqualTo(((Result.OutcomeUnknown) beforeRestart).idempotencyKey());
      shop.script(
          created("{\"id\":\"p-1\",\"status\":\"CAPTURED\"}")
              .header("Idempotent-Replayed", "true"));

      Result afterRestart = second.resume(pending.get(0).id());

      assertThat(afterRestart).isInstanceOf(Result.Replayed.class);
      List<Received> received = shop.received();
      assertThat(received).hasSize(4);
      assertThat(received).extracting(Received::key).containsOnly(received.get(0).key());
      assertThat(received)
          .extracting(Received::bodyText)
          .containsOnly(
              "{\"amount\":1250000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}");
      assertThat(received).extracting(Received::path).containsOnly("/api/v1/orders/o-1/payments");
      assertThat(second.pending()).isEmpty();
      assertThat(fileNames()).isEmpty();
    }
  }

  private static ShopClient clientOver(ScriptedShop shop, IntentStore store, Duration deadline) {
    return ShopClient.builder()
        .baseUri(shop.baseUri())
        .basicAuth("alice", "alice-secret")
        .intentStore(store)
        .retryPolicy(
            RetryPolicy.defaults()
                .withDeadline(deadline)
                .withRandom(new Random(3))
                .withClock(new FakeClock()))
        .build();
  }

  @Test
  void filesThatCannotBeReadAreSkippedWithTheirReasonAndLeftInPlace() throws IOException {
    FileIntentStore store = IntentStore.inFolder(folder);
    Intent good = intent("good", new byte[] {1, 2, 3});
    store.save(good);
    String wholeFile = Files.readString(folder.resolve(good.id() + ".intent"));

    String truncated = UUID.randomUUID().toString();
    Files.writeString(
        folder.resolve(truncated + ".intent"),
        wholeFile.replace(good.id(), truncated).substring(0, wholeFile.length() / 2));
    String tampered = UUID.randomUUID().toString();
    Files.writeString(
        folder.resolve(tampered + ".intent"),
        wholeFile
            .replace(good.id(), tampered)
            .replace(Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}), "AQID" + "BA=="));
    String moved = UUID.randomUUID().toString();
    Files.writeString(folder.resolve(moved + ".intent"), wholeFile);
    String empty = UUID.randomUUID().toString();
    Files.writeString(folder.resolve(empty + ".intent"), "");
    String newerFormat = UUID.randomUUID().toString();
    Files.writeString(
        folder.resolve(newerFormat + ".intent"),
        wholeFile.replace(good.id(), newerFormat).replace("\"format\":1", "\"format\":2"));
    Files.writeString(folder.resolve("." + good.id() + "-123.tmp"), "{\"format\":1,");

    assertThat(store.pending()).containsExactly(good);
    Map<String, String> reasons =
        store.unreadable().stream()
            .collect(
                Collectors.toMap(
                    file -> file.file().getFileName().toString(), UnreadableIntentFile::reason));
    assertThat(reasons)
        .containsOnlyKeys(
            truncated + ".intent",
            tampered + ".intent",
            moved + ".intent",
            empty + ".intent",
            newerFormat + ".intent");
    assertThat(reasons.get(truncated + ".intent")).startsWith("not JSON (cut short?)");
    assertThat(reasons.get(empty + ".intent")).startsWith("not JSON (cut short?)");
    assertThat(reasons.get(tampered + ".intent")).isEqualTo("body does not match its SHA-256");
    assertThat(reasons.get(moved + ".intent"))
        .isEqualTo("holds intent " + good.id() + ", not " + moved);
    assertThat(reasons.get(newerFormat + ".intent")).isEqualTo("format is not 1");

    ShopClient client =
        ShopClient.builder().baseUri("http://127.0.0.1:9").intentStore(store).build();
    assertThatThrownBy(() -> client.resume(truncated))
        .isInstanceOf(IntentStoreException.class)
        .hasMessageContaining(truncated + ".intent is unreadable: not JSON")
        .hasMessageContaining("left in place");
    assertThat(fileNames()).hasSize(7);
  }

  @Test
  void refusesAnIdThatCouldNameAFileOutsideTheFolder() {
    FileIntentStore store = IntentStore.inFolder(folder);

    for (String id : List.of("../escape", "a/b", "", ".hidden", "x".repeat(101))) {
      assertThatThrownBy(() -> store.find(id))
          .as(id)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("not an intent id");
    }
  }

  @Test
  void aFolderThatCannotBeCreatedIsAClearError() throws IOException {
    Path aFile = Files.writeString(folder.resolve("not-a-folder"), "x");

    assertThatThrownBy(() -> IntentStore.inFolder(aFile.resolve("intents")))
        .isInstanceOf(IntentStoreException.class)
        .hasMessageContaining("cannot create the intent folder");
  }

  @Test
  void anIntentIsOnDiskBeforeItsFirstTryLeavesAndGoneOnlyAfterItsAnswer() throws IOException {
    FileIntentStore store = IntentStore.inFolder(folder);
    List<String> events = new ArrayList<>();
    try (ScriptedShop shop = new ScriptedShop()) {
      shop.script(created("{\"id\":\"o-1\"}"));
      IntentStore watched =
          new IntentStore() {
            @Override
            public void save(Intent intent) {
              store.save(intent);
              events.add(
                  "saved, "
                      + store.pending().size()
                      + " on disk, shop saw "
                      + shop.received().size());
            }

            @Override
            public Optional<Intent> find(String intentId) {
              return store.find(intentId);
            }

            @Override
            public List<Intent> pending() {
              return store.pending();
            }

            @Override
            public void remove(String intentId) {
              events.add("removed after the shop saw " + shop.received().size());
              store.remove(intentId);
            }
          };
      ShopClient client =
          ShopClient.builder()
              .baseUri(shop.baseUri())
              .intentStore(watched)
              .retryPolicy(RetryPolicy.defaults().withClock(new FakeClock()))
              .build();

      assertThat(client.orders().create(ShopClientTest.ORDER)).isInstanceOf(Result.Created.class);
    }
    assertThat(events)
        .containsExactly("saved, 1 on disk, shop saw 0", "removed after the shop saw 1");
    assertThat(fileNames()).isEmpty();
  }

  /** The five lines of docs/client.md, as written there but for the base URI and the folder. */
  @Test
  void theFiveLinesOfTheClientDocWork() throws IOException {
    try (ScriptedShop server = new ScriptedShop()) {
      server.script(
          created("{\"id\":\"o-1\",\"status\":\"PENDING_PAYMENT\",\"total\":1250000}"),
          created("{\"id\":\"p-1\",\"status\":\"CAPTURED\"}"));
      Path intents = folder.resolve("shop-intents");

      ShopClient shop =
          ShopClient.builder()
              .baseUri(server.baseUri())
              .basicAuth("alice", "alice-secret")
              .intentStore(IntentStore.inFolder(intents))
              .build();
      Result order =
          shop.orders().create(CreateOrder.of("VND", new CreateOrder.Item("SKU-1", 2, 625_000)));
      Result paid = null;
      if (order instanceof Result.Success created) {
        paid =
            shop.payments()
                .pay(
                    created.json().getString("id"),
                    new PaymentRequest(
                        created.json().getJsonNumber("total").longValue(), "VND", "pm_card_ok"));
      }

      assertThat(paid).isInstanceOf(Result.Created.class);
      assertThat(server.received().get(1).path()).isEqualTo("/api/v1/orders/o-1/payments");
      assertThat(server.received().get(1).bodyText()).contains("\"amount\":1250000");
      assertThat(shop.pending()).isEmpty();
    }
  }
}
