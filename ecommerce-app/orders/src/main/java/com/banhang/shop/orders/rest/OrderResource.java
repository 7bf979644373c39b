package com.banhang.shop.orders.rest;

import com.banhang.idempotency.Idempotent;
import com.banhang.shop.orders.application.FindOrder;
import com.banhang.shop.orders.application.PlaceOrder;
import com.banhang.shop.orders.domain.model.Order;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;

/**
 * {@code /api/v1/orders}: place an order once per Idempotency-Key, and read it back. HTTP only: the
 * body and the caller become a {@link PlaceOrder.Command}, the order a 201 with its view.
 */
@Path("/v1/orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

  @Inject PlaceOrder placeOrder;
  @Inject FindOrder findOrder;
  @Context SecurityContext security;
  @Context UriInfo uri;

  /**
   * orders.create. The transaction spans the order rows and the completed key; the interceptor of
   * {@link Idempotent} stores this response inside it.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Transactional
  @Idempotent(operation = "orders.create", ttl = "PT24H")
  public Response create(@NotNull @Valid CreateOrderRequest request) {
    Order order = placeOrder.place(command(request));
    URI location = uri.getBaseUriBuilder().path(OrderResource.class).path(order.id()).build();
    return Response.created(location)
        .type(MediaType.APPLICATION_JSON)
        .entity(OrderView.of(order))
        .build();
  }

  @GET
  @Path("{orderId}")
  public OrderView get(@PathParam("orderId") String orderId) {
    return OrderView.of(findOrder.order(tenant(), orderId));
  }

  private PlaceOrder.Command command(CreateOrderRequest request) {
    return new PlaceOrder.Command(
        tenant(),
        request.merchantOrderId(),
        request.currency(),
        request.items().stream()
            .map(i -> new PlaceOrder.Command.Line(i.sku(), i.quantity(), i.unitPrice()))
            .toList());
  }

  /** The tenant is the authenticated customer; nothing in the request can name another. */
  private String tenant() {
    return security.getUserPrincipal().getName();
  }
}
