-- Payments: a flagged late charge marked handled by an operator (docs/payments.md, "Late charges",
-- and docs/operations.md, "Late charges"). The sweep's flag (late_charge) stays as it was found;
-- these columns say that an operator dealt with it, when, who, how and why: REFUNDED (refunded at
-- the processor) or ACCEPTED (the charge stands, e.g. the customer agreed). The shop moves no money
-- for either. Written only by one conditional UPDATE of a flagged row not yet handled
-- (JdbcLateChargeMarks), so a second mark changes nothing.
ALTER TABLE payment ADD COLUMN handled_at TIMESTAMP WITH TIME ZONE NULL;
ALTER TABLE payment ADD COLUMN handled_by VARCHAR(100) NULL;
ALTER TABLE payment ADD COLUMN handling VARCHAR(16) NULL;
ALTER TABLE payment ADD COLUMN handled_reason VARCHAR(1000) NULL;
ALTER TABLE payment ADD CONSTRAINT ck_payment_handling
    CHECK (handling IN ('REFUNDED', 'ACCEPTED'));
-- All four or none, and only on a charge the sweep flagged for an operator: a half-written mark,
-- or a mark on a payment nobody was asked to look at, is refused by the database too. A CHECK lets
-- an unknown result through, so the null flag is excluded explicitly: late_charge IN (...) alone
-- would be unknown, not false, for a payment without one.
ALTER TABLE payment ADD CONSTRAINT ck_payment_late_charge_handled
    CHECK ((handled_at IS NULL AND handled_by IS NULL AND handling IS NULL
            AND handled_reason IS NULL)
        OR (handled_at IS NOT NULL AND handled_by IS NOT NULL AND handling IS NOT NULL
            AND handled_reason IS NOT NULL AND late_charge IS NOT NULL
            AND late_charge IN ('DOUBLE_CHARGE', 'MISMATCH', 'DECLINED')));
-- No new index: the listing and the Overview's count still seek ix_payment_late_charge (V11) by
-- the flag, and handled_at IS NULL is checked on the few flagged rows it finds.
