-- The string columns of payments and of override proposals that the shop compares with a Java
-- string, made like V5's ids (docs/sqlserver.md, "Payments columns, the audit trigger and the
-- LIKE escape"). Nothing here has run on a SQL Server.

-- The indexes and constraints rebuilt here, and the trigger below, are saved with the options of
-- this session; Flyway's JDBC session has both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. nvarchar in a binary collation. The driver sends every String as nvarchar (V5), EclipseLink
-- binds the enums payment.status and payment.late_charge as strings, and a varchar column in the
-- database's default collation is then converted (CONVERT_IMPLICIT) and, under a SQL collation,
-- scanned instead of sought:
-- * payment.status: the late-charge sweep's candidates (status = ? AND created_at > ?) could not
--   seek ix_payment_status_created;
-- * payment.gateway_key: the sweep's NOT EXISTS (gateway_key = ... AND status = ?) and
--   findCapturedByGatewayKey had no index at all, and the latter runs while the attempt's row is
--   held WITH (UPDLOCK), so that lock was held for a scan of every payment; a gateway key is also
--   exact on PostgreSQL, and was case-insensitive here under a _CI_ default collation;
-- * payment.late_charge: the console's flagged late charges (late_charge IN (?, ?, ?));
-- * operator_override_proposal.status (pending, approve, reopen: status = ?) and its
--   idempotency_key, which share ix_operator_override_proposal_key with the nvarchar tenant_id.
-- ALTER COLUMN refuses a column that a CHECK constraint or an index uses: those are dropped first
-- and rebuilt after, unchanged.
ALTER TABLE dbo.payment DROP CONSTRAINT ck_payment_status;
ALTER TABLE dbo.payment DROP CONSTRAINT ck_payment_late_charge;
DROP INDEX ix_payment_status_created ON dbo.payment;
DROP INDEX ix_operator_override_proposal_key ON dbo.operator_override_proposal;
GO

ALTER TABLE dbo.payment ALTER COLUMN status nvarchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.payment ALTER COLUMN gateway_key nvarchar(100) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.payment ALTER COLUMN late_charge nvarchar(16) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE dbo.operator_override_proposal ALTER COLUMN status nvarchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.operator_override_proposal ALTER COLUMN idempotency_key nvarchar(255) COLLATE Latin1_General_100_BIN2 NOT NULL;
GO

ALTER TABLE dbo.payment ADD CONSTRAINT ck_payment_status
    CHECK (status IN (N'PENDING', N'CAPTURED', N'DECLINED', N'ABANDONED'));
ALTER TABLE dbo.payment ADD CONSTRAINT ck_payment_late_charge
    CHECK (late_charge IN (N'RECORDED', N'DOUBLE_CHARGE', N'MISMATCH', N'DECLINED'));
CREATE INDEX ix_payment_status_created ON dbo.payment (status, created_at);
-- tenant_id 200 + idempotency_key 510 + status 32 bytes: under the 1,700-byte limit.
CREATE INDEX ix_operator_override_proposal_key
    ON dbo.operator_override_proposal (tenant_id, idempotency_key, status);
GO

-- 2. New indexes. The captured attempt of a gateway key is found by a seek, and the sweep's
-- NOT EXISTS needs no row of the table (both columns are in the index). The flagged late charges
-- and their counts (the console's overview) are found by a seek instead of a scan of every payment.
CREATE INDEX ix_payment_gateway_key ON dbo.payment (gateway_key, status);
CREATE INDEX ix_payment_late_charge ON dbo.payment (late_charge, late_checked_at);
GO

-- 3. The audit's trigger (V4) refused every UPDATE and DELETE, even one that matched no row, where
-- PostgreSQL's row trigger is not fired at all. An INSTEAD OF trigger fires once per statement,
-- with the rows the statement would change in "deleted": none changes nothing and is let through;
-- any is refused, and nothing is changed either way.
CREATE OR ALTER TRIGGER dbo.tr_operator_audit_append_only ON dbo.operator_audit
    INSTEAD OF UPDATE, DELETE
AS
BEGIN
    SET NOCOUNT ON;
    IF NOT EXISTS (SELECT 1 FROM deleted)
        RETURN;
    THROW 50001, 'operator_audit is append-only', 1;
END;
GO
