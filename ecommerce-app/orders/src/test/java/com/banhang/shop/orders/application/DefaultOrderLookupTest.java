package com.banhang.shop.orders.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.orders.domain.model.OrderRepository;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

@ExtendWith(MockitoExtension.class)
class DefaultOrderLookupTest {

  @Mock OrderRepository orders;

  private DefaultOrderLookup lookup() {
    DefaultOrderLookup lookup = new DefaultOrderLookup();
    lookup.orders = orders;
    return lookup;
  }

  @Test
  void anExactMerchantOrderId_isLookedUpTrimmed_newestFirstAsTheRepositoryAnswers() {
    when(orders.idsByMerchantOrderId("M-1001", 20)).thenReturn(List.of("o-2", "o-1"));

    assertThat(lookup().idsByMerchantOrderId("  M-1001\t", 20)).containsExactly("o-2", "o-1");
    verify(orders).idsByMerchantOrderId("M-1001", 20);
  }

  @Test
  void aBlankTerm_aTooLongOne_orNoRows_findNothingWithoutAQuery() {
    assertThat(lookup().idsByMerchantOrderId(null, 20)).isEmpty();
    assertThat(lookup().idsByMerchantOrderId("   ", 20)).isEmpty();
    assertThat(lookup().idsByMerchantOrderId("x".repeat(65), 20)).isEmpty();
    assertThat(lookup().idsByMerchantOrderId("M-1001", 0)).isEmpty();
    verifyNoInteractions(orders);
  }
}
