-- Payments: the late-charge sweep (docs/payments.md, "Late charges"). An ABANDONED attempt whose
-- key was released may still be charged by a request that reached the processor late. The sweep
-- asks the gateway by the attempt's gateway key within the gateway's key retention, and writes
-- here when it last asked (late_checked_at) and what it found: RECORDED (the attempt was captured
-- and the order paid), DOUBLE_CHARGE (the order was paid by another attempt: for an operator),
-- MISMATCH (a charge that is not this attempt's: for an operator) or DECLINED (nothing charged).
ALTER TABLE payment ADD COLUMN late_checked_at TIMESTAMP WITH TIME ZONE NULL;
ALTER TABLE payment ADD COLUMN late_charge VARCHAR(16) NULL;
ALTER TABLE payment ADD COLUMN late_charge_id VARCHAR(100) NULL;
ALTER TABLE payment ADD COLUMN late_charge_detail VARCHAR(1000) NULL;
ALTER TABLE payment ADD CONSTRAINT ck_payment_late_charge
    CHECK (late_charge IN ('RECORDED', 'DOUBLE_CHARGE', 'MISMATCH', 'DECLINED'));
CREATE INDEX ix_payment_status_created ON payment (status, created_at);
