/**
 * Events out as signed webhooks, following the Standard Webhooks specification.
 *
 * <p>The relay hands each event to {@link com.banhang.events.webhooks.WebhookTransport}, which
 * records one delivery per subscriber endpoint receiving the event's tenant (the event's
 * CloudEvents JSON, exactly as it will be sent) and returns; {@link
 * com.banhang.events.webhooks.WebhookDispatcher#deliverDue()}, which the application schedules,
 * claims due deliveries under a lease and POSTs them, signed with every secret of the endpoint,
 * retrying each on the {@link com.banhang.events.webhooks.RetrySchedule} and parking it after the
 * last attempt. {@link com.banhang.events.webhooks.WebhookOperations} is the operator's side,
 * {@link com.banhang.events.webhooks.WebhookTargets} the guard against server-side request forgery,
 * {@link com.banhang.events.webhooks.StandardWebhookVerification} a subscriber's check. The
 * configuration's names are listed on {@link com.banhang.events.webhooks.WebhookSettings}.
 */
package com.banhang.events.webhooks;
