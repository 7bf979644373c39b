package com.banhang.gateway.sandbox.charge;

import jakarta.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The fingerprint of a charge request: SHA-256 over the fields that define a charge (amount,
 * currency, orderReference, paymentMethod). Two requests under one key are the same intent exactly
 * when their fingerprints are equal.
 */
public final class ChargeFingerprint {

  private ChargeFingerprint() {}

  /** The lower-case hex SHA-256 of the request's defining fields. */
  public static String of(ChargeRequest request) {
    // A JSON array is an unambiguous encoding: no separator inside a value can shift a field
    // boundary.
    String canonical =
        Json.createArrayBuilder()
            .add(request.getAmount())
            .add(request.getCurrency())
            .add(request.getOrderReference())
            .add(request.getPaymentMethod())
            .build()
            .toString();
    return HexFormat.of().formatHex(sha256(canonical.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
