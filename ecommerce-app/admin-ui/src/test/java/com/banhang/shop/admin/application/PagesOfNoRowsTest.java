package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.intThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.ProcessingPage;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The console never asks the database for a page of no rows: SQL Server refuses {@code FETCH NEXT 0
 * ROWS} (the count must be at least 1), where H2 and PostgreSQL answer an empty page.
 */
class PagesOfNoRowsTest {

  private static final StuckFilter ANY = new StuckFilter(null, null, null, Duration.ZERO);

  @Test
  void auditPage_ofNoRows_isEmptyWithoutTouchingTheDatabase() {
    AuditLog audit = new AuditLog();
    audit.dataSource = mock(DataSource.class);

    assertThat(audit.page(null, 0, 0)).isEmpty();
    assertThat(audit.page("refund", 40, 0)).isEmpty();

    verifyNoInteractions(audit.dataSource);
  }

  @Test
  void stuckCount_asksForAPageOfAtLeastOneRow() {
    StuckOperations stuck = new StuckOperations();
    stuck.keys = mock(IdempotencyKeys.class);
    when(stuck.keys.listProcessing(any(), anyInt(), anyInt()))
        .thenReturn(new ProcessingPage(List.of(), 7));

    assertThat(stuck.count(ANY)).isEqualTo(7);

    verify(stuck.keys).listProcessing(any(), eq(0), intThat(limit -> limit >= 1));
    verify(stuck.keys, never()).listProcessing(any(), anyInt(), intThat(limit -> limit < 1));
  }

  @Test
  void stuckPage_ofNoRows_isEmptyWithoutAQuery() {
    StuckOperations stuck = new StuckOperations();
    stuck.keys = mock(IdempotencyKeys.class);

    assertThat(stuck.page(ANY, 20, 0)).isEmpty();

    verifyNoInteractions(stuck.keys);
  }
}
