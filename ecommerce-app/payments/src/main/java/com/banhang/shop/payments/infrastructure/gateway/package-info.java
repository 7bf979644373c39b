/**
 * The card processor over HTTP: {@code RestPaymentGateway} implements the application's {@code
 * PaymentGateway} port on top of {@code RetryingGatewayClient}, the MicroProfile Fault Tolerance
 * bounded client that retries each call under the same gateway key, which in turn uses the
 * MicroProfile Rest Client {@code GatewayChargesClient}; {@code RetryingChargeDuration} reports to
 * the application how long a charge call can last under those bounds. How failures are classified
 * as charged, not charged or unknown is docs/payments.md, "How gateway failures are classified".
 * May depend on {@code application} and the events of {@code api}; nothing outside this package
 * depends on it.
 */
package com.banhang.shop.payments.infrastructure.gateway;
