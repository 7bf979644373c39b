package com.banhang.shop.payments.api;

/**
 * CDI event: reconciliation examined one payments.charge key (in a run or on an operator's request)
 * and this is what became of it, so that metrics can count findings. Fired synchronously after the
 * key's check was recorded; an observer that throws is logged and does not stop the run.
 */
public record ReconciliationChecked(ReconciliationReport.Finding finding) {}
