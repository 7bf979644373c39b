package com.banhang.shop.payments.api;

/**
 * CDI event: the late-charge sweep examined one abandoned payment and this is what it found, so
 * that metrics can count findings (a double charge above all).
 */
public record LateChargeChecked(LateChargeReport.Finding finding) {}
