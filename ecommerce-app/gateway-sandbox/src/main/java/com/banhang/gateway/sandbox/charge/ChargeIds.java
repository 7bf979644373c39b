package com.banhang.gateway.sandbox.charge;

import java.security.SecureRandom;

/** Creates charge ids such as {@code ch_3kT9...}. */
final class ChargeIds {

  private static final String ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  private static final int RANDOM_CHARACTERS = 24;

  // Not the seeded fault Random: ids must stay unique across restarts, which a fixed seed would
  // repeat.
  private static final SecureRandom RANDOM = new SecureRandom();

  private ChargeIds() {}

  static String next() {
    StringBuilder id = new StringBuilder("ch_");
    for (int i = 0; i < RANDOM_CHARACTERS; i++) {
      id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return id.toString();
  }
}
