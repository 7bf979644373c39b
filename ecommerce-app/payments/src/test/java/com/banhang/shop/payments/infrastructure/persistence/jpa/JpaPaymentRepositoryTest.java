package com.banhang.shop.payments.infrastructure.persistence.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Answers;
import org.mockito.ArgumentCaptor;

/**
 * Pages of no rows never reach the database: SQL Server refuses {@code FETCH NEXT 0 ROWS}, and
 * EclipseLink turns {@code setMaxResults(0)} into that, or into no limit at all.
 */
class JpaPaymentRepositoryTest {

  private static final OffsetDateTime NOW = OffsetDateTime.now(ZoneOffset.UTC);
  private static final EnumSet<LateCharge> FLAGS = EnumSet.of(LateCharge.DOUBLE_CHARGE);

  private final EntityManager em = mock(EntityManager.class);
  private final JpaPaymentRepository repository = new JpaPaymentRepository();

  @BeforeEach
  void wire() {
    repository.em = em;
  }

  @Test
  void lateChargeCandidates_ofNoRows_areNoneWithoutAQuery() {
    assertThat(repository.lateChargeCandidates(NOW.minusDays(1), NOW, 0)).isEmpty();
    assertThat(repository.lateChargeCandidates(NOW.minusDays(1), NOW, -1)).isEmpty();
    verifyNoInteractions(em);
  }

  @Test
  void flaggedLateCharges_aPageOfNoRows_isEmptyWithoutAQuery_atAnyOffset() {
    assertThat(repository.flaggedLateCharges(FLAGS, false, 0, 0)).isEmpty();
    assertThat(repository.flaggedLateCharges(FLAGS, true, 50, 0)).isEmpty();
    verifyNoInteractions(em);
  }

  @Test
  void flaggedLateCharges_aNegativeOffset_readsFromTheFirstRow() {
    @SuppressWarnings("unchecked")
    TypedQuery<Payment> query = mock(TypedQuery.class, Answers.RETURNS_SELF);
    when(query.getResultList()).thenReturn(List.of());
    when(em.createQuery(anyString(), any(Class.class))).thenReturn(query);

    assertThat(repository.flaggedLateCharges(FLAGS, false, -5, 10)).isEmpty();

    verify(query).setFirstResult(0);
    verify(query).setMaxResults(10);
  }

  @Test
  @SuppressWarnings("unchecked")
  void handledLateCharges_areLeftOut_unlessAskedFor_inTheListingAndItsCount() {
    TypedQuery<Payment> page = mock(TypedQuery.class, Answers.RETURNS_SELF);
    when(page.getResultList()).thenReturn(List.of());
    TypedQuery<Long> count = mock(TypedQuery.class, Answers.RETURNS_SELF);
    when(count.getSingleResult()).thenReturn(0L);
    when(em.createQuery(anyString(), eq(Payment.class))).thenReturn(page);
    when(em.createQuery(anyString(), eq(Long.class))).thenReturn(count);
    ArgumentCaptor<String> jpql = ArgumentCaptor.forClass(String.class);

    repository.flaggedLateCharges(FLAGS, false, 0, 10);
    repository.countFlaggedLateCharges(FLAGS, false);
    repository.flaggedLateCharges(FLAGS, true, 0, 10);
    repository.countFlaggedLateCharges(FLAGS, true);

    verify(em, times(2)).createQuery(jpql.capture(), eq(Payment.class));
    verify(em, times(2)).createQuery(jpql.capture(), eq(Long.class));
    List<String> statements = jpql.getAllValues();
    assertThat(statements.get(0)).contains("p.handledAt IS NULL");
    assertThat(statements.get(1)).doesNotContain("handledAt");
    assertThat(statements.get(2)).contains("p.handledAt IS NULL");
    assertThat(statements.get(3)).doesNotContain("handledAt");
  }
}
