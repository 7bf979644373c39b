package com.banhang.idempotency.internal;

/**
 * Every problem the library answers itself, one problem type per failure mode, each with when it
 * happens. The slug is written here and nowhere else in the library; docs/problems.md describes
 * each for clients. The one slug that is not here is the operation's own "outcome unknown" problem
 * ({@link com.banhang.idempotency.Idempotent#outcomeUnknownProblem()}), which the application
 * names.
 */
public enum IdempotencyProblem {

  /**
   * 401: a key was sent, or the operation needs one, but nobody authenticated: keys are kept per
   * caller.
   */
  AUTHENTICATION_REQUIRED(401, "authentication-required", "Authentication required"),

  /**
   * 403: the caller authenticated, but its name cannot keep keys apart: it begins or ends with
   * white space, holds a control character, or is longer than a stored tenant (100 characters). SQL
   * Server compares strings ignoring trailing blanks, so "bob" and "bob " would share keys.
   */
  CALLER_NAME_UNUSABLE(403, "caller-name-unusable", "Caller name cannot scope keys"),

  /** 400: the operation needs an {@code Idempotency-Key} and the request has none. */
  KEY_MISSING(400, "idempotency-key-missing", "Idempotency-Key missing"),

  /**
   * 400: the header is there but is not a key (empty, too long, bad characters, several values).
   */
  KEY_INVALID(400, "idempotency-key-invalid", "Idempotency-Key invalid"),

  /** 400: the body cannot be read or is not the JSON the fingerprint needs. */
  MALFORMED_BODY(400, "malformed-request-body", "Malformed request body"),

  /** 400: a JSON object names one member twice, which parsers read differently. */
  DUPLICATE_JSON_MEMBER(400, "duplicate-json-member", "Duplicate member name in request body"),

  /** 400: arrays and objects nest deeper than {@code idempotency.max-json-depth}. */
  JSON_TOO_DEEP(400, "json-nesting-too-deep", "JSON nesting too deep"),

  /** 413: the body is longer than {@code idempotency.max-body-bytes}. */
  BODY_TOO_LARGE(413, "request-body-too-large", "Request body too large"),

  /**
   * 422: the key is bound to another request (another body or path): a new intent needs a new key.
   */
  KEY_REUSED(422, "idempotency-key-reused", "Idempotency key reused"),

  /**
   * 409 with Retry-After: another request with this key is still running, or this request lost its
   * claim to a takeover and its work was rolled back.
   */
  KEY_IN_USE(409, "idempotency-key-in-use", "Idempotency key in use"),

  /**
   * 429 with Retry-After: the caller used up its new keys of the operation on this server for now.
   */
  TOO_MANY_NEW_KEYS(429, "too-many-new-keys", "Too many new idempotency keys"),

  /**
   * 503 with Retry-After: the key could not be read or recorded (database down, a stored body that
   * cannot be opened); nothing was executed, or what was is rolled back.
   */
  STORE_UNAVAILABLE(503, "idempotency-store-unavailable", "Idempotency store unavailable"),

  /**
   * 500: the method returned normally, but its transaction rolled back (setRollbackOnly, a failed
   * commit): nothing happened, and the key is free for a retry.
   */
  OPERATION_ROLLED_BACK(500, "operation-rolled-back", "Operation rolled back");

  private final int status;
  private final String slug;
  private final String title;

  IdempotencyProblem(int status, String slug, String title) {
    this.status = status;
    this.slug = slug;
    this.title = title;
  }

  public int status() {
    return status;
  }

  public String slug() {
    return slug;
  }

  public String title() {
    return title;
  }
}
