package com.banhang.shop.orders.api;

/** What the payments context may know of an order: who owns it, what it costs, whether paid. */
public record PayableOrder(String id, String tenantId, String currency, long total, boolean paid) {}
