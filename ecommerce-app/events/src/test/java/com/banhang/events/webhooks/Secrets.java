package com.banhang.events.webhooks;

import java.security.SecureRandom;
import java.util.Base64;

/** Signing secrets made for one test run: none is written anywhere. */
final class Secrets {

  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** A new {@code whsec_} secret of 32 random bytes. */
  static String newSecret() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return "whsec_" + Base64.getEncoder().encodeToString(key);
  }
}
