/**
 * The payment and its life (pending, captured, declined, abandoned, and a late charge found under
 * an abandoned attempt), the repository it is kept in (an interface; the JPA implementation is
 * infrastructure) and the domain's exceptions (docs/payments.md). Depends on no outer layer, on no
 * other context and on no REST or idempotency code; JPA annotations only.
 */
package com.banhang.shop.payments.domain.model;
