package com.banhang.shop.admin.application;

import com.banhang.shop.payments.api.KeyPaymentView;
import java.time.Instant;
import java.util.Optional;

/** Everything the detail panel of a stuck key shows. */
public record StuckOperationDetail(
    StuckOperation operation,
    String fingerprint,
    Instant expiresAt,
    String lastCheckDetail,
    Optional<KeyPaymentView> payment) {}
