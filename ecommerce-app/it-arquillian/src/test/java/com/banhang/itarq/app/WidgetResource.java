package com.banhang.itarq.app;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.IdempotentRequest;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;

/**
 * An idempotent operation of the kind the library is for: one business row written with JDBC in the
 * method's JTA transaction ({@code @Transactional}), the key completed by the library's interceptor
 * in that same transaction. The id is made here, so a second execution would make a second row.
 */
@Path("widgets")
@RequestScoped
public class WidgetResource {

  @Inject Widgets widgets;
  @Inject FailureSwitch failures;
  @Inject ClaimObserver observer;
  @Inject IdempotentRequest idempotentRequest;

  @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
  TransactionSynchronizationRegistry transactions;

  @POST
  @Transactional
  @Idempotent(operation = "widgets.create")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Response create(JsonObject request) {
    String id = UUID.randomUUID().toString();
    String name = request.getString("name");
    widgets.insert(id, name);
    if (failures.consumeFailAfterWrite()) {
      throw new IllegalStateException("fault injected after widget " + id + " was written");
    }
    if (failures.consumeRollbackOnly()) {
      transactions.setRollbackOnly();
    }
    return Response.status(Response.Status.CREATED).entity(new Widget(id, name)).build();
  }

  /** Writes its row, then always fails inside the transaction. */
  @POST
  @Path("failing")
  @Transactional
  @Idempotent(operation = "widgets.create-failing")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Response createThenFail(JsonObject request) {
    String id = UUID.randomUUID().toString();
    widgets.insert(id, request.getString("name"));
    throw new IllegalStateException("widget " + id + " was written, then the operation failed");
  }

  /**
   * Notes, from inside its transaction, whether a transaction is open and what another transaction
   * sees of its key: the claim must have committed on its own before this transaction began.
   */
  @POST
  @Path("observed")
  @Transactional
  @Idempotent(operation = "widgets.create-observed")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Response createObserved(JsonObject request) {
    ClaimedKey claim = idempotentRequest.claim().orElseThrow();
    observer.saw(
        claim.key(),
        "in a transaction: "
            + (transactions.getTransactionKey() != null)
            + "; claim seen by another transaction: "
            + observer.committedStatus(claim.tenant(), claim.operation(), claim.key()));
    String id = UUID.randomUUID().toString();
    widgets.insert(id, request.getString("name"));
    return Response.status(Response.Status.CREATED)
        .entity(new Widget(id, request.getString("name")))
        .build();
  }

  /** Its body is bound to a record and validated by JAX-RS before the method is invoked. */
  @POST
  @Path("validated")
  @Transactional
  @Idempotent(operation = "widgets.create-validated")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Response createValidated(@NotNull @Valid WidgetRequest request) {
    String id = UUID.randomUUID().toString();
    widgets.insert(id, request.name());
    return Response.status(Response.Status.CREATED).entity(new Widget(id, request.name())).build();
  }
}
