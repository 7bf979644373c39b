package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.ProcessingQuery;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StuckFilterTest {

  /**
   * The console's columns are the library's, by name: a renamed column fails here, not at 3 a.m.
   */
  @Test
  void everySortColumnIsOneTheLibrarySortsBy() {
    assertThat(Arrays.stream(StuckFilter.Column.values()).map(Enum::name))
        .containsExactlyElementsOf(
            Arrays.stream(ProcessingQuery.Column.values()).map(Enum::name).toList());
  }
}
