package com.banhang.shop.orders.infrastructure.persistence.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mockito.Answers;
import org.mockito.ArgumentCaptor;

/**
 * The operator's lookup by merchant order id: one exact comparison (a seek on
 * ix_shop_order_merchant_order_id), newest first, bounded; a page of no rows never reaches the
 * database (EclipseLink reads {@code setMaxResults(0)} as no limit).
 */
class JpaOrderRepositoryTest {

  private final EntityManager em = mock(EntityManager.class);

  private JpaOrderRepository repository() {
    JpaOrderRepository repository = new JpaOrderRepository();
    repository.em = em;
    return repository;
  }

  @Test
  void idsByMerchantOrderId_comparesExactly_newestFirst_andBoundsThePage() {
    @SuppressWarnings("unchecked")
    TypedQuery<String> query = mock(TypedQuery.class, Answers.RETURNS_SELF);
    when(query.getResultList()).thenReturn(List.of("o-2", "o-1"));
    ArgumentCaptor<String> jpql = ArgumentCaptor.forClass(String.class);
    when(em.createQuery(jpql.capture(), eq(String.class))).thenReturn(query);

    assertThat(repository().idsByMerchantOrderId("M-1001", 5)).containsExactly("o-2", "o-1");

    assertThat(jpql.getValue())
        .contains("o.merchantOrderId = :merchantOrderId")
        .contains("ORDER BY o.createdAt DESC")
        .doesNotContain("LIKE")
        .doesNotContain("tenantId");
    verify(query).setParameter("merchantOrderId", "M-1001");
    verify(query).setMaxResults(5);
  }

  @Test
  void idsByMerchantOrderId_ofNoRows_orOfNothing_isEmptyWithoutAQuery() {
    assertThat(repository().idsByMerchantOrderId("M-1001", 0)).isEmpty();
    assertThat(repository().idsByMerchantOrderId("", 5)).isEmpty();
    assertThat(repository().idsByMerchantOrderId(null, 5)).isEmpty();
    verifyNoInteractions(em);
  }
}
