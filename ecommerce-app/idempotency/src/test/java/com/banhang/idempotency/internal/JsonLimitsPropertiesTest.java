package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/**
 * The depth and size limits checked before canonicalisation (docs/idempotency.md): a body nested
 * exactly to the limit is fingerprinted, one level more is 400 json-nesting-too-deep, a body over
 * the byte limit is 413, whatever mix of arrays, objects, whitespace and siblings builds it.
 */
class JsonLimitsPropertiesTest {

  private static final long SEED = 20261207L;

  private static QuickTheory qt500() {
    return qt().withFixedSeed(SEED).withExamples(500);
  }

  /** A random document whose deepest branch nests exactly {@code depth} arrays and objects. */
  static String nested(int depth, long seed) {
    Random random = new Random(seed);
    StringBuilder open = new StringBuilder();
    StringBuilder close = new StringBuilder();
    for (int level = 0; level < depth; level++) {
      String space = random.nextBoolean() ? " " : "";
      if (random.nextBoolean()) {
        open.append('[').append(space).append(random.nextBoolean() ? "1," : "");
        close.insert(0, space + "]");
      } else {
        open.append("{\"m").append(level).append("\":").append(space);
        close.insert(0, (random.nextBoolean() ? ",\"s\":0" : "") + "}");
      }
    }
    return open + (random.nextBoolean() ? "\"leaf\"" : "0") + close;
  }

  @Test
  void depthUpToTheLimit_accepted_oneMore_refusedWith400() {
    qt500()
        .forAll(integers().between(1, 40), integers().between(1, 40), longs().all())
        .checkAssert(
            (depth, limit, seed) -> {
              byte[] body = nested(depth, seed).getBytes(UTF_8);
              RequestFingerprint.Limits limits = new RequestFingerprint.Limits(limit, 65_536);
              if (depth <= limit) {
                assertAccepted(body, limits);
              } else {
                assertThatThrownBy(() -> RequestFingerprint.of("op", new TreeMap<>(), body, limits))
                    .as("depth %d, limit %d, seed %d", depth, limit, seed)
                    .isInstanceOfSatisfying(
                        RejectedRequestException.class,
                        e -> {
                          assertThat(e.problem().status()).isEqualTo(400);
                          assertThat(e.problem().slug()).isEqualTo("json-nesting-too-deep");
                        });
              }
            });
  }

  @Test
  void defaultLimit_is32() throws Exception {
    assertAccepted(nested(32, 1).getBytes(UTF_8), RequestFingerprint.Limits.DEFAULT);
    assertThatThrownBy(
            () -> RequestFingerprint.of("op", new TreeMap<>(), nested(33, 1).getBytes(UTF_8)))
        .isInstanceOf(RejectedRequestException.class);
  }

  @Test
  void veryDeepBody_isRefusedCheaply_notAStackOverflow() {
    byte[] body = "[".repeat(60_000).getBytes(UTF_8);

    assertThatThrownBy(() -> RequestFingerprint.of("op", new TreeMap<>(), body))
        .isInstanceOfSatisfying(
            RejectedRequestException.class,
            e -> assertThat(e.problem().slug()).isEqualTo("json-nesting-too-deep"));
  }

  @Test
  void sizeOverTheLimit_413_atTheLimit_accepted() {
    qt500()
        .forAll(integers().between(4, 2000), integers().between(-3, 3))
        .checkAssert(
            (limit, delta) -> {
              int length = Math.max(4, limit + delta);
              byte[] body = ("[\"" + "a".repeat(length - 4) + "\"]").getBytes(UTF_8);
              RequestFingerprint.Limits limits = new RequestFingerprint.Limits(32, limit);
              if (length <= limit) {
                assertAccepted(body, limits);
              } else {
                assertThatThrownBy(() -> RequestFingerprint.of("op", new TreeMap<>(), body, limits))
                    .isInstanceOfSatisfying(
                        RejectedRequestException.class,
                        e -> assertThat(e.problem().status()).isEqualTo(413));
              }
            });
  }

  private static void assertAccepted(byte[] body, RequestFingerprint.Limits limits) {
    try {
      assertThat(RequestFingerprint.of("op", new TreeMap<>(), body, limits)).hasSize(64);
    } catch (RejectedRequestException e) {
      throw new AssertionError(new String(body, UTF_8) + " refused: " + e.getMessage(), e);
    }
  }
}
