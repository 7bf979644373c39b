package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEventView.Status;
import com.banhang.shop.payments.application.GatewayEventStore.Key;
import com.banhang.shop.payments.application.GatewayEventStore.Received;
import java.time.Instant;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator console's reads of {@code gateway_event} on H2, migrated from sql/h2: one event by
 * its key, and what waits for an operator (parked, or flagged and not marked handled).
 */
class H2GatewayEventStoreOperatorTest {

  private static final Instant T0 = Instant.parse("2026-12-07T03:00:00Z");

  private final JdbcGatewayEventStore store = new JdbcGatewayEventStore();

  @BeforeEach
  void database() {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:gateway-events-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    PaymentJdbcContract.migrate(dataSource, "h2");
    store.dataSource = dataSource;
  }

  private void received(String eventId, Status status, int minutesAfter) {
    store.receive(
        new Received(
            "sandbox",
            eventId,
            "charge.succeeded",
            "ch_" + eventId,
            "gk_" + eventId,
            "{}",
            "signature verified with secret 1 of 1",
            status,
            "detail of " + eventId,
            T0.plusSeconds(60L * minutesAfter)));
  }

  @Test
  void needingAnOperator_areTheParkedAndTheUnhandledFlagged_newestDeliveryFirst() {
    received("evt_settled", Status.SETTLED, 0);
    received("evt_parked", Status.PARKED, 1);
    received("evt_flagged", Status.FLAGGED, 2);
    received("evt_handled", Status.FLAGGED, 3);
    received("evt_pending", Status.PENDING, 4);
    assertThat(
            store.markHandled(
                new Key("sandbox", "evt_handled"), "carol", "refunded [ticket INC-1]", T0))
        .isTrue();

    assertThat(store.needingOperator(0, 10))
        .extracting(GatewayEventView::eventId)
        .containsExactly("evt_flagged", "evt_parked");
    assertThat(store.needingOperator(1, 10))
        .extracting(GatewayEventView::eventId)
        .containsExactly("evt_parked");
    assertThat(store.needingOperator(0, 0)).isEmpty();
    assertThat(store.countFlaggedUnhandled()).isEqualTo(1);
  }

  @Test
  void find_answersOneEventWhateverItsStatus_withItsMark_orNothing() {
    received("evt_handled", Status.FLAGGED, 0);
    store.markHandled(new Key("sandbox", "evt_handled"), "carol", "accepted [ticket INC-2]", T0);

    GatewayEventView found = store.find(new Key("sandbox", "evt_handled")).orElseThrow();

    assertThat(found.status()).isEqualTo("FLAGGED");
    assertThat(found.chargeId()).isEqualTo("ch_evt_handled");
    assertThat(found.handledBy()).isEqualTo("carol");
    assertThat(found.handledReason()).isEqualTo("accepted [ticket INC-2]");
    assertThat(store.find(new Key("other-provider", "evt_handled"))).isEmpty();
    assertThat(store.find(new Key("sandbox", "evt_none"))).isEmpty();
  }
}
