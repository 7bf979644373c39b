package com.banhang.shop.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.GatewayEventsIn;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.payments.api.GatewayEventView;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/v1/admin/gateway-events}: bad filters and pages are 400 problems before anything is
 * read, an unknown event is 404, a refusal 422, a failure 503; the operator is the principal.
 */
class GatewayEventsResourceTest {

  private static final GatewayEventView PARKED =
      new GatewayEventView(
          "sandbox",
          "evt_1",
          "charge.unknown",
          null,
          null,
          null,
          "PARKED",
          "unknown event type",
          "signature verified with secret 1 of 1",
          1,
          0,
          Instant.EPOCH,
          Instant.EPOCH,
          Instant.EPOCH,
          null,
          null);

  private final GatewayEventsResource resource = new GatewayEventsResource();

  /** ProblemDetails reads its type base from MicroProfile Config: none here, the bare slug. */
  @BeforeAll
  static void noConfig() {
    Config config = mock(Config.class);
    when(config.getOptionalValue(any(), any())).thenReturn(Optional.empty());
    ConfigProviderResolver resolver = mock(ConfigProviderResolver.class);
    when(resolver.getConfig()).thenReturn(config);
    when(resolver.getConfig(any())).thenReturn(config);
    ConfigProviderResolver.setInstance(resolver);
  }

  @AfterAll
  static void configAsBefore() {
    ConfigProviderResolver.setInstance(null);
  }

  @BeforeEach
  void collaborators() {
    resource.gatewayEvents = mock(GatewayEventsIn.class);
    resource.actions = mock(OperatorActions.class);
    resource.security = mock(SecurityContext.class);
    when(resource.security.getUserPrincipal()).thenReturn(() -> "carol");
  }

  private static JsonObject problem(Response response) {
    assertThat(response.getMediaType().toString()).isEqualTo("application/problem+json");
    return Json.createReader(
            new StringReader(new String((byte[]) response.getEntity(), StandardCharsets.UTF_8)))
        .readObject();
  }

  @Test
  void anUnknownStatus_isA400Problem_namingTheFilters_andNothingIsRead() {
    Response response = resource.list("HANDLED", null, null);

    assertThat(response.getStatus()).isEqualTo(400);
    JsonObject problem = problem(response);
    assertThat(problem.getString("type")).isEqualTo("invalid-operator-request");
    assertThat(problem.getString("detail"))
        .isEqualTo(
            "status must be one of NEEDING_OPERATOR, ALL, PENDING, SETTLED, CONFIRMED, FLAGGED,"
                + " PARKED");
    verifyNoInteractions(resource.gatewayEvents);
  }

  @Test
  void aPageOutOfRange_isA400Problem() {
    assertThat(resource.list(null, -1, null).getStatus()).isEqualTo(400);
    assertThat(resource.list("parked", 0, 501).getStatus()).isEqualTo(400);
    assertThat(problem(resource.list(null, 0, 0)).getString("detail"))
        .isEqualTo(PageRequest.OUT_OF_RANGE);
    verify(resource.gatewayEvents, never()).page(any(), any(), anyInt(), anyInt());
  }

  @Test
  void aPage_isReadUnderThePrincipal_withItsFilterAndWhatWaits() {
    when(resource.gatewayEvents.page("carol", "PARKED", 10, 20)).thenReturn(List.of(PARKED));
    when(resource.gatewayEvents.count("PARKED")).thenReturn(11L);
    when(resource.gatewayEvents.countFlaggedUnhandled()).thenReturn(2L);
    when(resource.gatewayEvents.countParked()).thenReturn(11L);

    Response response = resource.list("parked", 10, 20);

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(response.getEntity())
        .isEqualTo(
            new GatewayEventsResource.GatewayEventPage("PARKED", 11, 2, 11, 10, List.of(PARKED)));
  }

  @Test
  void noStatus_isEveryEvent_fromTheFirstPage() {
    resource.list(null, null, null);

    verify(resource.gatewayEvents).page("carol", "ALL", 0, PageRequest.DEFAULT_LIMIT);
  }

  @Test
  void retryingAnUnknownEvent_isA404Problem_andNothingIsTried() {
    Response response = resource.retry("sandbox", "evt_none");

    assertThat(response.getStatus()).isEqualTo(404);
    JsonObject problem = problem(response);
    assertThat(problem.getString("type")).isEqualTo("gateway-event-not-found");
    assertThat(problem.getString("detail")).isEqualTo("no gateway event evt_none from sandbox");
    verifyNoInteractions(resource.actions);
  }

  @Test
  void aRetry_isTheOperatorsAction_200WhenDone_422WhenRefused_503WhenFailed() {
    when(resource.gatewayEvents.find("sandbox", "evt_1")).thenReturn(Optional.of(PARKED));
    when(resource.actions.retryGatewayEvent("carol", "sandbox", "evt_1"))
        .thenReturn(
            ActionResult.done("gateway event evt_1 retried: now PARKED"),
            ActionResult.refused("gateway event evt_1 is SETTLED, not parked"),
            new ActionResult(ActionResult.Status.FAILED, "failed: database down"));

    Response done = resource.retry("sandbox", "evt_1");
    Response refused = resource.retry("sandbox", "evt_1");
    Response failed = resource.retry("sandbox", "evt_1");

    assertThat(done.getStatus()).isEqualTo(200);
    assertThat(refused.getStatus()).isEqualTo(422);
    assertThat(problem(refused).getString("type")).isEqualTo("operator-action-refused");
    assertThat(failed.getStatus()).isEqualTo(503);
    assertThat(failed.getHeaderString("Retry-After")).isEqualTo("5");
  }

  @Test
  void markingHandled_sendsTheReasonWithTheTicket_underThePrincipal() {
    when(resource.gatewayEvents.find("sandbox", "evt_1")).thenReturn(Optional.of(PARKED));
    when(resource.actions.markGatewayEventHandled(
            "carol", "sandbox", "evt_1", "refunded ch_1 at the processor [ticket INC-42]"))
        .thenReturn(ActionResult.done("gateway event evt_1 marked handled by carol"));

    Response response =
        resource.handled(
            "sandbox",
            "evt_1",
            new GatewayEventsResource.HandledRequest(" refunded ch_1 at the processor ", "INC-42"));

    assertThat(response.getStatus()).isEqualTo(200);
  }

  @Test
  void markingHandled_withoutABody_isTheActionsRefusal_a422() {
    when(resource.gatewayEvents.find("sandbox", "evt_1")).thenReturn(Optional.of(PARKED));
    when(resource.actions.markGatewayEventHandled("carol", "sandbox", "evt_1", null))
        .thenReturn(ActionResult.refused("a reason is required to mark a gateway event handled"));

    Response response = resource.handled("sandbox", "evt_1", null);

    assertThat(response.getStatus()).isEqualTo(422);
    assertThat(problem(response).getString("detail"))
        .isEqualTo("a reason is required to mark a gateway event handled");
  }

  @Test
  void markingAnUnknownEvent_isA404Problem() {
    Response response =
        resource.handled(
            "sandbox", "evt_none", new GatewayEventsResource.HandledRequest("x", "INC-1"));

    assertThat(response.getStatus()).isEqualTo(404);
    verifyNoInteractions(resource.actions);
  }
}
