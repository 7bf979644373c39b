/**
 * The retry storm: customers whose app times out and retries, against a running shop. {@link
 * com.banhang.storm.Storm} runs the intents, {@link com.banhang.storm.RetryingClient} is the
 * customer's app (one key per request, kept across retries, jittered backoff, Retry-After honoured,
 * a bounded total time), and {@link com.banhang.storm.StormReport} holds the table, with the
 * gateway sandbox's own counts as ground truth. Depends on nothing of the shop but its HTTP API
 * (docs/proof.md).
 */
package com.banhang.storm;
