-- Payments: the late-charge sweep (docs/payments.md, "Late charges"). An ABANDONED attempt whose
-- key was released may still be charged by a request that reached the processor late. The sweep
-- asks the gateway by the attempt's gateway key within the gateway's key retention, and writes
-- here when it last asked (late_checked_at) and what it found: RECORDED (the attempt was captured
-- and the order paid), DOUBLE_CHARGE (the order was paid by another attempt: for an operator),
-- MISMATCH (a charge that is not this attempt's: for an operator) or DECLINED (nothing charged).
ALTER TABLE dbo.payment ADD
    late_checked_at    datetimeoffset(3) NULL,
    late_charge        varchar(16)       NULL,
    late_charge_id     varchar(100)      NULL,
    late_charge_detail nvarchar(1000)    NULL;
GO
ALTER TABLE dbo.payment ADD CONSTRAINT ck_payment_late_charge
    CHECK (late_charge IN ('RECORDED', 'DOUBLE_CHARGE', 'MISMATCH', 'DECLINED'));
CREATE INDEX ix_payment_status_created ON dbo.payment (status, created_at);
