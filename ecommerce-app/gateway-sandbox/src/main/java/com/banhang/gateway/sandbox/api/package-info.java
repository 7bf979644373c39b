/**
 * The sandbox's HTTP API: {@code /v1/charges}, {@code /v1/faults} and {@code /v1/stats}, their JSON
 * shapes, the JSON error shape and the exception mappers, the request-size limit and the broken
 * connections of the {@code RESET} drop mode. May depend on {@code charge} and {@code fault}.
 */
package com.banhang.gateway.sandbox.api;
