-- Payments: a flagged late charge marked handled by an operator (docs/payments.md, "Late charges",
-- and docs/operations.md, "Late charges"). The same columns and constraints as sql/h2 and
-- sql/postgresql's V16. Nothing here has run on a SQL Server.
-- The sweep's flag (late_charge) stays as it was found; these columns say that an operator dealt
-- with it, when, who, how and why: REFUNDED (refunded at the processor) or ACCEPTED (the charge
-- stands, e.g. the customer agreed). The shop moves no money for either. Written only by one
-- conditional UPDATE of a flagged row not yet handled (JdbcLateChargeMarks), so a second mark
-- changes nothing.
-- Columns as V11 makes them: handling is an enum name that EclipseLink binds as a string (the
-- driver sends nvarchar), so nvarchar in the binary collation, like late_charge, compared without
-- a conversion; handled_by (an operator's name) and handled_reason (their words) are text, so
-- nvarchar, as operator_audit's and payment_timeline's; handled_at like the other times.
ALTER TABLE dbo.payment ADD
    handled_at     datetimeoffset(3) NULL,
    handled_by     nvarchar(100)     NULL,
    handling       nvarchar(16)      COLLATE Latin1_General_100_BIN2 NULL,
    handled_reason nvarchar(1000)    NULL;
GO

ALTER TABLE dbo.payment ADD CONSTRAINT ck_payment_handling
    CHECK (handling IN (N'REFUNDED', N'ACCEPTED'));
-- All four or none, and only on a charge the sweep flagged for an operator: a half-written mark,
-- or a mark on a payment nobody was asked to look at, is refused by the database too. A CHECK lets
-- an unknown result through, so the null flag is excluded explicitly: late_charge IN (...) alone
-- would be unknown, not false, for a payment without one. ALTER COLUMN refuses a column that a
-- CHECK uses: a later change of late_charge's type drops and rebuilds this one too, as V11 did
-- ck_payment_late_charge.
ALTER TABLE dbo.payment ADD CONSTRAINT ck_payment_late_charge_handled
    CHECK ((handled_at IS NULL AND handled_by IS NULL AND handling IS NULL
            AND handled_reason IS NULL)
        OR (handled_at IS NOT NULL AND handled_by IS NOT NULL AND handling IS NOT NULL
            AND handled_reason IS NOT NULL AND late_charge IS NOT NULL
            AND late_charge IN (N'DOUBLE_CHARGE', N'MISMATCH', N'DECLINED')));
GO
-- No new index: the listing and the Overview's count still seek ix_payment_late_charge (V11) by
-- the flag, and handled_at IS NULL is checked on the few flagged rows it finds.
