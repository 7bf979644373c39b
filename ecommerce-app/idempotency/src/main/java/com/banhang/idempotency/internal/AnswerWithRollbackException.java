package com.banhang.idempotency.internal;

import jakarta.ws.rs.core.Response;

/**
 * An answer decided inside the operation's transaction that must not commit what that transaction
 * holds: a claim refused by the new-key limit after its row was written (H2), or a claim whose lock
 * wait ran out (the database aborted the transaction). Thrown through {@code @Transactional}, which
 * rolls back on it, and answered by {@link AnswerWithRollbackExceptionMapper}.
 */
class AnswerWithRollbackException extends RuntimeException {

  private final transient Response answer;

  AnswerWithRollbackException(Response answer) {
    super(
        "answered " + answer.getStatus() + "; the operation's transaction rolls back",
        null,
        false,
        false);
    this.answer = answer;
  }

  Response answer() {
    return answer;
  }
}
