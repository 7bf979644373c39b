/**
 * The JPA implementation of the domain's {@code PaymentRepository}, in the persistence unit {@code
 * shop}, with the row locks that keep several nodes from settling one attempt twice. May depend on
 * the domain model only.
 */
package com.banhang.shop.payments.infrastructure.persistence.jpa;
