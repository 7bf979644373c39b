/**
 * The payments context's published facade: what the operator console and the WAR (schedules,
 * metrics) may call, and nothing else of payments. The rule of every context's {@code api} package:
 * only interfaces, records, enums and CDI event types; their implementations are application
 * services in {@code application} ({@code Default*}, as in Cargo Tracker), and nothing here depends
 * on the REST resources in {@code rest}. Holds reconciliation, the late-charge sweep, the
 * operator's resolution and their reports, the views of payments and flagged late charges, and the
 * events {@code GatewayCallFailed}, {@code ReconciliationChecked} and {@code LateChargeChecked}
 * (docs/payments.md). May depend on the JDK only.
 */
package com.banhang.shop.payments.api;
