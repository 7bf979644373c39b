package com.banhang.idempotency.internal;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * The fingerprint of a request (docs/idempotency.md): SHA-256 over the operation, the matched path
 * parameters and the RFC 8785 canonical form of the JSON body. Two bodies that differ only in
 * member order, whitespace, escapes or number spelling have the same fingerprint; credentials and
 * headers are never part of it.
 *
 * <p>Each part is length-prefixed before hashing, so no choice of values can make two different
 * requests hash the same input.
 */
public final class RequestFingerprint {

  private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());

  private static final String VERSION = "fingerprint-v1";

  /**
   * Checked on the raw body before it is canonicalised, so that a body that is too large or too
   * deep costs no more than one streaming pass up to the limit.
   *
   * @param maxDepth the deepest nesting of arrays and objects (the outermost value is depth 1)
   * @param maxBytes the largest body in bytes
   */
  public record Limits(int maxDepth, int maxBytes) {

    /** The library's defaults: depth 32, 65,536 bytes. */
    public static final Limits DEFAULT = new Limits(32, 65_536);

    public Limits {
      if (maxDepth < 1 || maxBytes < 1) {
        throw new IllegalArgumentException("JSON limits must be positive");
      }
    }
  }

  private RequestFingerprint() {}

  /** {@link #of(String, SortedMap, byte[], Limits)} with the {@link Limits#DEFAULT} limits. */
  public static String of(String operation, SortedMap<String, String> pathParameters, byte[] body)
      throws RejectedRequestException {
    return of(operation, pathParameters, body, Limits.DEFAULT);
  }

  /**
   * @param pathParameters matched path parameters, sorted by name
   * @param body the raw request body; empty when the request has none
   * @return lowercase hex SHA-256
   * @throws RejectedRequestException 400 when the body is not one JSON value, repeats a member or
   *     nests deeper than {@code limits}; 413 when it is larger
   */
  public static String of(
      String operation, SortedMap<String, String> pathParameters, byte[] body, Limits limits)
      throws RejectedRequestException {
    MessageDigest sha256 = sha256();
    update(sha256, VERSION);
    update(sha256, operation);
    sha256.update(ByteBuffer.allocate(4).putInt(pathParameters.size()).array());
    pathParameters.forEach(
        (name, value) -> {
          update(sha256, name);
          update(sha256, value);
        });
    update(sha256, body.length == 0 ? "" : canonicalJson(body, limits));
    return HexFormat.of().formatHex(sha256.digest());
  }

  /**
   * The RFC 8785 form of {@code body}. The body is first checked here, streaming, for what the
   * canonical form cannot represent unambiguously (I-JSON, RFC 7493); the canonical text itself
   * comes from the Java port of the JCS reference implementation, whose numbers follow ECMAScript
   * exactly (titanium-jcs 1.1.1 does not: see docs/testing.md).
   */
  public static String canonicalJson(byte[] body) throws RejectedRequestException {
    return canonicalJson(body, Limits.DEFAULT);
  }

  /** {@link #canonicalJson(byte[])} after the size and depth checks of {@code limits}. */
  public static String canonicalJson(byte[] body, Limits limits) throws RejectedRequestException {
    if (body.length > limits.maxBytes()) {
      throw new RejectedRequestException(
          IdempotencyProblem.BODY_TOO_LARGE, "the body exceeds " + limits.maxBytes() + " bytes");
    }
    requireSingleIJsonValue(body, limits.maxDepth());
    try {
      return new JsonCanonicalizer(body).getEncodedString();
    } catch (IOException | RuntimeException e) {
      throw malformed("the body is not I-JSON (RFC 7493)");
    }
  }

  /**
   * Exactly one JSON value in strict UTF-8, where no object repeats a member name (JSON-P readers
   * silently keep the last one), no string holds an unpaired surrogate and every number is a finite
   * double.
   */
  private static void requireSingleIJsonValue(byte[] body, int maxDepth)
      throws RejectedRequestException {
    Reader strictUtf8 =
        new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8.newDecoder());
    try (JsonParser parser = PARSERS.createParser(strictUtf8)) {
      Deque<Set<String>> objects = new ArrayDeque<>();
      int depth = 0;
      boolean seenValue = false;
      while (parser.hasNext()) {
        if (seenValue && depth == 0) {
          throw malformed("the body holds more than one JSON value");
        }
        switch (parser.next()) {
          case START_OBJECT -> {
            objects.push(new HashSet<>());
            depth = deeper(depth, maxDepth);
          }
          case START_ARRAY -> depth = deeper(depth, maxDepth);
          case END_OBJECT -> {
            objects.pop();
            depth--;
          }
          case END_ARRAY -> depth--;
          case KEY_NAME -> {
            String name = requireWellFormed(parser.getString());
            if (!objects.peek().add(name)) {
              throw duplicateMember(name);
            }
          }
          case VALUE_STRING -> requireWellFormed(parser.getString());
          case VALUE_NUMBER -> requireFinite(parser.getBigDecimal());
          default -> {}
        }
        seenValue = true;
      }
      if (!seenValue) {
        throw malformed("the body holds no JSON value");
      }
    } catch (JsonException
        | IllegalStateException
        | NoSuchElementException
        | NumberFormatException
        | ArithmeticException
        | UnsupportedOperationException e) {
      // The last: JSON-P refuses a number of more than 1,100 characters with it.
      throw malformed("the body is not valid JSON");
    }
  }

  private static int deeper(int depth, int maxDepth) throws RejectedRequestException {
    if (depth >= maxDepth) {
      throw new RejectedRequestException(
          IdempotencyProblem.JSON_TOO_DEEP,
          "the body nests arrays and objects deeper than " + maxDepth + " levels");
    }
    return depth + 1;
  }

  private static String requireWellFormed(String text) throws RejectedRequestException {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw malformed("a string in the body holds an unpaired UTF-16 surrogate");
      }
    }
    return text;
  }

  private static void requireFinite(BigDecimal number) throws RejectedRequestException {
    if (Double.isInfinite(number.doubleValue())) {
      throw malformed("a number in the body is beyond the range of I-JSON numbers");
    }
  }

  private static RejectedRequestException duplicateMember(String name) {
    return new RejectedRequestException(
        IdempotencyProblem.DUPLICATE_JSON_MEMBER,
        "an object in the body names the member \""
            + name
            + "\" twice, which makes its meaning ambiguous");
  }

  private static RejectedRequestException malformed(String detail) {
    return new RejectedRequestException(IdempotencyProblem.MALFORMED_BODY, detail);
  }

  private static void update(MessageDigest digest, String part) {
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
    digest.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
