package com.banhang.shop.payments.application;

/** A charge the processor made: succeeded (money taken) or declined (nothing taken). */
public record GatewayCharge(String chargeId, boolean succeeded) {}
