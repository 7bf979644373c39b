package com.banhang.gateway.sandbox.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/**
 * {@code POST /v1/webhooks/resend}: what was queued.
 *
 * @param since the {@code since} asked for
 * @param eventIds the events queued, in the order they are sent
 */
@JsonbPropertyOrder({"since", "eventIds"})
public record WebhookResendJson(String since, List<String> eventIds) {}
