/**
 * The sandbox's HTTP API: {@code /v1/charges}, {@code /v1/faults}, {@code /v1/faults/webhooks},
 * {@code /v1/webhooks} and {@code /v1/stats}, their JSON shapes, the JSON error shape and the
 * exception mappers, the request-size limit and the broken connections of the {@code RESET} drop
 * mode. May depend on {@code charge}, {@code fault} and {@code webhook}.
 */
package com.banhang.gateway.sandbox.api;
