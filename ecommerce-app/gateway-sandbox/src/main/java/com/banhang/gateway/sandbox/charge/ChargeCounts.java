package com.banhang.gateway.sandbox.charge;

/**
 * How many charges succeeded and how many were declined, for one order reference or in total.
 *
 * @param succeeded charges with status succeeded
 * @param declined charges with status declined
 */
public record ChargeCounts(long succeeded, long declined) {}
