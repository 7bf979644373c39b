package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEvents;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** The console's reads of the processor's webhook events: filters, counts, and the audit. */
class GatewayEventsInTest {

  private final GatewayEventsIn in = new GatewayEventsIn();

  @BeforeEach
  void collaborators() {
    in.events = mock(GatewayEvents.class);
    in.audit = mock(AuditLog.class);
  }

  @Test
  void filters_areWhatWaitsFirst_thenAll_thenEachStatus_inAnyCase() {
    assertThat(GatewayEventsIn.filters())
        .containsExactly(
            "NEEDING_OPERATOR", "ALL", "PENDING", "SETTLED", "CONFIRMED", "FLAGGED", "PARKED");
    assertThat(GatewayEventsIn.filter(null)).contains("ALL");
    assertThat(GatewayEventsIn.filter(" ")).contains("ALL");
    assertThat(GatewayEventsIn.filter("parked")).contains("PARKED");
    assertThat(GatewayEventsIn.filter("needing_operator")).contains("NEEDING_OPERATOR");
    assertThat(GatewayEventsIn.filter("HANDLED")).isEmpty();
  }

  @Test
  void whatWaitsForAnOperator_isReadFromItsOwnQuery_andCountedAsFlaggedUnhandledPlusParked() {
    GatewayEventView parked = OperatorActionsGatewayEventsTest.event("PARKED", null, null);
    when(in.events.needingOperator(0, 50)).thenReturn(List.of(parked));
    when(in.events.countFlaggedUnhandled()).thenReturn(2L);
    when(in.events.count("PARKED")).thenReturn(1L);

    assertThat(in.page("operator", "NEEDING_OPERATOR", 0, 50)).containsExactly(parked);
    assertThat(in.count("NEEDING_OPERATOR")).isEqualTo(3);
    verify(in.events, never()).page(any(), anyInt(), anyInt());
  }

  @Test
  void allAndOneStatus_areReadByStatus_nullForAll() {
    when(in.events.count(null)).thenReturn(7L);
    when(in.events.count("SETTLED")).thenReturn(4L);

    in.page("operator", "ALL", 10, 20);
    in.page("operator", "settled", 0, 5);

    verify(in.events).page(null, 10, 20);
    verify(in.events).page("SETTLED", 0, 5);
    assertThat(in.count(null)).isEqualTo(7);
    assertThat(in.count("SETTLED")).isEqualTo(4);
  }

  @Test
  void eachRead_isAuditedUnderTheOperator_withWhatWasRead() {
    when(in.events.page("FLAGGED", 0, 50))
        .thenReturn(List.of(OperatorActionsGatewayEventsTest.event("FLAGGED", "p-1", null)));

    in.page("carol", "FLAGGED", 0, 50);

    ArgumentCaptor<ActionResult> result = ArgumentCaptor.forClass(ActionResult.class);
    verify(in.audit)
        .append(
            eq("carol"),
            eq(OperatorActions.READ_GATEWAY_EVENTS),
            eq(null),
            eq(null),
            result.capture());
    assertThat(result.getValue())
        .isEqualTo(ActionResult.done("read 1 gateway events (FLAGGED) from offset 0 (limit 50)"));
  }

  @Test
  void aReadThatCannotBeAudited_fails_insteadOfShowingTheEvents() {
    doThrow(new IllegalStateException("cannot write the operator audit"))
        .when(in.audit)
        .append(any(), any(), any(), any(), any());

    assertThatThrownBy(() -> in.page("carol", "ALL", 0, 50))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anUnknownFilter_isRefusedBeforeAnyRead() {
    assertThatThrownBy(() -> in.page("carol", "HANDLED", 0, 50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HANDLED");
    verify(in.events, never()).page(any(), anyInt(), anyInt());
    verify(in.audit, never()).append(any(), any(), any(), any(), any());
  }

  @Test
  void findAsksPayments() {
    GatewayEventView event = OperatorActionsGatewayEventsTest.event("PARKED", null, null);
    when(in.events.find("sandbox", "evt_1")).thenReturn(Optional.of(event));

    assertThat(in.find("sandbox", "evt_1")).contains(event);
    assertThat(in.find("sandbox", "evt_2")).isEmpty();
  }
}
