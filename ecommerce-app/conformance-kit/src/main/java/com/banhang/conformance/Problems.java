package com.banhang.conformance;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What makes an answer an RFC 9457 problem document, and the problem types of docs/problems.md. */
public final class Problems {

  /** RFC 9457 section 3: the media type of a problem document in JSON. */
  public static final String MEDIA_TYPE = "application/problem+json";

  private Problems() {}

  /**
   * Why {@code answer} is not a problem document, or empty if it is one: the {@code
   * application/problem+json} media type, a JSON object as body, {@code type} and {@code title}
   * strings when present, and a {@code status} member, when present, equal to the HTTP status.
   */
  public static Optional<String> notAProblem(Answer answer) {
    String text = answer.text().stripLeading();
    if (answer.mediaType().equals("text/html") || text.startsWith("<")) {
      return Optional.of("an HTML page, not a problem document: " + answer.summary());
    }
    if (!answer.mediaType().equals(MEDIA_TYPE)) {
      return Optional.of("Content-Type is not " + MEDIA_TYPE + ": " + answer.summary());
    }
    JsonObject problem = answer.json().orElse(null);
    if (problem == null) {
      return Optional.of("the body is not a JSON object: " + answer.summary());
    }
    for (String member : List.of("type", "title")) {
      JsonValue value = problem.get(member);
      if (value != null && !(value instanceof JsonString)) {
        return Optional.of("member " + member + " is not a string: " + answer.summary());
      }
    }
    JsonValue status = problem.get("status");
    if (status != null
        && !(status instanceof JsonNumber n && n.isIntegral() && n.intValue() == answer.status())) {
      return Optional.of("member status is not " + answer.status() + ": " + answer.summary());
    }
    return Optional.empty();
  }

  /**
   * Why the problem's {@code type} does not end with {@code #slug} for one of {@code slugs}, or
   * empty if it does (docs/problems.md: the type URI ends with the slug's anchor).
   */
  public static Optional<String> wrongType(Answer answer, String... slugs) {
    String type = answer.member("type").orElse("");
    for (String slug : slugs) {
      if (type.endsWith("#" + slug)) {
        return Optional.empty();
      }
    }
    return Optional.of(
        "problem type '" + type + "' is not #" + String.join(" or #", Arrays.asList(slugs)));
  }
}
