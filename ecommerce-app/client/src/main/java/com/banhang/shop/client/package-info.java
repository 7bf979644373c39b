/**
 * A Java client of the shop's API for callers that retry, built so that retrying one intent with
 * one {@code Idempotency-Key} never charges twice (docs/contract.md, docs/client.md).
 *
 * <p>{@link com.banhang.shop.client.ShopClient} sends each intent (create an order, pay an order)
 * under one key with the same bytes on every try, retries the answers that are not final with
 * exponential backoff and full jitter inside a deadline ({@link
 * com.banhang.shop.client.RetryPolicy}), keeps each intent in an {@link
 * com.banhang.shop.client.IntentStore} until a final answer so that a restarted client resumes it,
 * and returns every answer the contract defines as a {@link com.banhang.shop.client.Result}. {@link
 * com.banhang.shop.client.IdempotencyKeyFilter} does the same for callers that use a JAX-RS or
 * MicroProfile Rest Client.
 *
 * <p>Only {@code java.net.http} and Parsson (Jakarta JSON Processing) are needed; the filter also
 * needs the JAX-RS API, which its callers already have.
 */
package com.banhang.shop.client;
