package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.StoredResponse;

/**
 * Test-only access to the request's lifecycle, which the library's filter fills, so that an
 * in-container test can call an {@code @Idempotent} CDI method directly, inside a transaction it
 * controls, as if the filter had won the claim. Deployed in the test WAR beside the library jar:
 * same class loader, same package.
 */
public final class InContainerAccess {

  private InContainerAccess() {}

  /** What the request filter and the claim do when the claim wins. */
  public static void claimed(RequestLifecycle state, ClaimedKey claim) {
    state.admitted(null, null, false);
    state.claimed(claim);
  }

  /** The completion the interceptor recorded for this request; null once a rollback forgot it. */
  public static StoredResponse completed(RequestLifecycle state) {
    return state.stored();
  }
}
