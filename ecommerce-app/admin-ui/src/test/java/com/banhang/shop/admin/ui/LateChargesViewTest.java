package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.FlaggedLateChargeView;
import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.grid.Grid;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Late charges view: what the sweep flagged, and what the operator does about it. */
class LateChargesViewTest extends ConsoleTestBase {

  private static final Instant FOUND = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeEach
  void operator() {
    loginAs("operator");
  }

  private static FlaggedLateChargeView row(String paymentId, String flag) {
    return new FlaggedLateChargeView(
        paymentId,
        "alice",
        "order-" + paymentId,
        1_250_000,
        "VND",
        flag,
        "ch_" + paymentId,
        "detail of " + paymentId,
        FOUND);
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDoubleChargeIsShownAsChargedTwice_refundAtTheProcessor() {
    List<FlaggedLateChargeView> rows =
        List.of(row("p-1", "DOUBLE_CHARGE"), row("p-2", "MISMATCH"), row("p-3", "DECLINED"));
    when(lateCharges.count()).thenReturn(rows.size());
    when(lateCharges.page(anyString(), anyInt(), anyInt()))
        .thenAnswer(
            invocation -> {
              int offset = invocation.getArgument(1);
              int limit = invocation.getArgument(2);
              return rows.subList(
                  Math.min(offset, rows.size()), Math.min(rows.size(), offset + limit));
            });

    navigate(LateChargesView.class);

    Grid<FlaggedLateChargeView> grid = _get(Grid.class, s -> s.withId("late-charges-grid"));
    assertThat(GridKt._size(grid)).isEqualTo(3);
    // The read is made, and so audited, under the logged-in operator's name.
    org.mockito.Mockito.verify(lateCharges, org.mockito.Mockito.atLeastOnce())
        .page(org.mockito.ArgumentMatchers.eq("operator"), anyInt(), anyInt());
    assertThat(GridKt._getFormattedRow(grid, 0))
        .containsExactly(
            Formats.instant(FOUND),
            "DOUBLE_CHARGE",
            "charged twice: refund at the processor",
            "alice",
            "order-p-1",
            "1250000 VND",
            "ch_p-1",
            "p-1",
            "detail of p-1");
    assertThat(GridKt._getFormattedRow(grid, 1)).contains("MISMATCH", LateChargesView.MISMATCH);
    assertThat(GridKt._getFormattedRow(grid, 2)).contains("DECLINED", LateChargesView.DECLINED);
  }

  @Test
  void aFailingServiceShowsAnErrorAndAnEmptyGrid() {
    when(lateCharges.count()).thenThrow(new IllegalStateException("database down"));

    navigate(LateChargesView.class);

    assertThat(notificationTexts()).anyMatch(t -> t.contains("database down"));
    @SuppressWarnings("unchecked")
    Grid<FlaggedLateChargeView> grid = _get(Grid.class, s -> s.withId("late-charges-grid"));
    assertThat(GridKt._size(grid)).isZero();
  }
}
