/**
 * The order and its invariants: an order of lines for one tenant, awaiting payment or paid, the
 * repository it is kept in (an interface; the JPA implementation is infrastructure) and the
 * domain's exceptions. Depends on no outer layer, on no other context and on no REST or idempotency
 * code; JPA annotations only.
 */
package com.banhang.shop.orders.domain.model;
