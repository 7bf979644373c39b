/**
 * The Vaadin Flow operator console served at {@code /admin} (docs/operations.md): its views,
 * dialogs, login and layout. May depend on {@code admin.application}, the views and records of
 * {@code payments.api}, and the records the events library's operator methods return: never on the
 * idempotency library, any context's infrastructure or Jakarta REST, so that what an operator does
 * is always what the audited services do (checked by the module's {@code ArchitectureTest}).
 */
package com.banhang.shop.admin.ui;
