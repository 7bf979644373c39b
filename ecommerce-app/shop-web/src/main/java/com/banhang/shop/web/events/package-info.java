/**
 * The outbox's Kafka transport: the shop's events as CloudEvents on a Kafka topic, keyed by their
 * aggregate, through MicroProfile Reactive Messaging and Liberty's Kafka connector. Off unless
 * {@code events.kafka.bootstrap-servers} is set. May depend on the events library's public API.
 */
package com.banhang.shop.web.events;
