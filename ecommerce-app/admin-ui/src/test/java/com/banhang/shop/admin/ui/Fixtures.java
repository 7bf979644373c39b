package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.admin.application.StuckOperationDetail;
import com.banhang.shop.payments.api.KeyPaymentView;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

final class Fixtures {

  static final Instant NOW = Instant.now();

  private Fixtures() {}

  static StuckOperation stuckCharge(String key, String lastCheck) {
    return new StuckOperation(
        new KeyRef("alice", "payments.charge", key),
        1,
        NOW.minus(Duration.ofMinutes(30)),
        NOW.minus(Duration.ofMinutes(29)),
        true,
        lastCheck,
        lastCheck == null ? null : NOW.minus(Duration.ofMinutes(1)),
        NOW);
  }

  static StuckOperationDetail detailOf(StuckOperation op) {
    return new StuckOperationDetail(
        op,
        "sha256:fingerprint-" + op.ref().key(),
        NOW.plus(Duration.ofHours(24)),
        "gateway answered 404",
        Optional.of(
            new KeyPaymentView(
                "pay-1",
                "order-1",
                1_250_000,
                "VND",
                "PENDING",
                "gk-" + op.ref().key(),
                null,
                op.createdAt())));
  }
}
