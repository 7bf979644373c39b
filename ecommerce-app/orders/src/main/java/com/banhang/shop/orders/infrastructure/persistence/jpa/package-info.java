/**
 * The JPA implementation of the domain's {@code OrderRepository}, in the persistence unit {@code
 * shop}. May depend on the domain model only.
 */
package com.banhang.shop.orders.infrastructure.persistence.jpa;
