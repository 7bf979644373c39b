package com.banhang.idempotency.internal;

import com.apicatalog.jcs.JsonCanonicalizer;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;

/**
 * The fingerprint of a request (CONTRACT s4): SHA-256 over the operation, the matched path
 * parameters and the RFC 8785 canonical form of the JSON body. Two bodies that differ only in member
 * order, whitespace, escapes or number spelling have the same fingerprint; credentials and headers
 * are never part of it.
 *
 * <p>Each part is length-prefixed before hashing, so no choice of values can make two different
 * requests hash the same input.
 */
public final class RequestFingerprint {

  private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());

  private static final String VERSION = "fingerprint-v1";

  private RequestFingerprint() {}

  /**
   * @param pathParameters matched path parameters, sorted by name
   * @param body the raw request body; empty when the request has none
   * @return lowercase hex SHA-256
   * @throws RejectedRequestException 400 when the body is not one JSON value or repeats a member
   */
  public static String of(String operation, SortedMap<String, String> pathParameters, byte[] body)
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
    update(sha256, body.length == 0 ? "" : canonicalJson(body));
    return HexFormat.of().formatHex(sha256.digest());
  }

  /** The RFC 8785 form of {@code body}. */
  public static String canonicalJson(byte[] body) throws RejectedRequestException {
    JsonValue value = readSingleValueWithUniqueMembers(body);
    try {
      return JsonCanonicalizer.canonize(value);
    } catch (RuntimeException e) {
      throw malformed("the body is not I-JSON (RFC 7493)");
    }
  }

  /**
   * Reads exactly one JSON value, streaming, and refuses what the canonical form cannot represent
   * unambiguously: a member name repeated in one object (RFC 7493 s2.3; JSON-P readers keep
   * silently the last one) and anything after the value.
   */
  private static JsonValue readSingleValueWithUniqueMembers(byte[] body)
      throws RejectedRequestException {
    try (JsonParser parser =
        PARSERS.createParser(new ByteArrayInputStream(body), StandardCharsets.UTF_8)) {
      Deque<JsonValueBuilder> open = new ArrayDeque<>();
      JsonValue root = null;
      while (parser.hasNext()) {
        if (root != null) {
          throw malformed("the body holds more than one JSON value");
        }
        JsonParser.Event event = parser.next();
        switch (event) {
          case START_OBJECT -> open.push(JsonValueBuilder.object());
          case START_ARRAY -> open.push(JsonValueBuilder.array());
          case KEY_NAME -> {
            if (!open.peek().name(parser.getString())) {
              throw new RejectedRequestException(
                  400,
                  "duplicate-json-member",
                  "Duplicate member name in request body",
                  "an object in the body names the member \""
                      + parser.getString()
                      + "\" twice, which makes its meaning ambiguous");
            }
          }
          case END_OBJECT, END_ARRAY -> root = add(open, open.pop().build());
          default -> root = add(open, parser.getValue());
        }
      }
      if (root == null) {
        throw malformed("the body holds no JSON value");
      }
      return root;
    } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
      throw malformed("the body is not valid JSON");
    }
  }

  /** Adds a finished value to the enclosing container; returns it when it is the root. */
  private static JsonValue add(Deque<JsonValueBuilder> open, JsonValue value) {
    if (open.isEmpty()) {
      return value;
    }
    open.peek().add(value);
    return null;
  }

  private static RejectedRequestException malformed(String detail) {
    return new RejectedRequestException(
        400, "malformed-request-body", "Malformed request body", detail);
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
