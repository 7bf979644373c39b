package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotentRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/** The library's {@link IdempotentRequest}: the current request's claim, completed by the gate. */
@ApplicationScoped
public class DefaultIdempotentRequest implements IdempotentRequest {

  @Inject RequestLifecycle life;
  @Inject IdempotencyGate gate;

  @Override
  public Optional<ClaimedKey> claim() {
    return life.phase().ownsClaim() ? Optional.of(life.claim()) : Optional.empty();
  }

  @Override
  public Response complete(Response response) {
    return gate.complete(response);
  }
}
