-- Payments: the payment timeline (docs/payments.md, "The payment timeline"), and the indexes of the
-- operator console's payment search. The same table and indexes as sql/h2 and sql/postgresql's
-- V13. Nothing here has run on a SQL Server.

-- The indexes rebuilt here and the trigger below are saved with the options of this session;
-- Flyway's JDBC session has both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. One row per thing that happened to a payments.charge key and its attempts: the attempt
-- started, each failed try at the gateway, the gateway's answer, an unknown outcome, every
-- reconciliation check with what the gateway said, the settlement, the late-charge sweep's findings
-- and the customer's retries. The key's last_check column keeps only the last check; this table
-- keeps every one. payment_id is null for an entry of the key alone.
-- Columns as V11 makes them: tenant_id and idempotency_key are compared with a Java string (the
-- driver sends nvarchar), so nvarchar in the binary collation, sought without a conversion;
-- payment_id like payment.id (V5); detail and actor are words and names, so nvarchar; kind is an
-- ASCII name that nothing filters on, so varchar. ix_payment_timeline_key is 200 + 510 + 8 bytes,
-- under the 1,700-byte limit of a nonclustered index key.
CREATE TABLE dbo.payment_timeline (
    id              bigint IDENTITY(1, 1) NOT NULL,
    tenant_id       nvarchar(100)         COLLATE Latin1_General_100_BIN2 NOT NULL,
    idempotency_key nvarchar(255)         COLLATE Latin1_General_100_BIN2 NOT NULL,
    payment_id      nvarchar(36)          COLLATE Latin1_General_100_BIN2 NULL,
    occurred_at     datetimeoffset(3)     NOT NULL,
    kind            varchar(32)           NOT NULL,
    detail          nvarchar(1000)        NULL,
    actor           nvarchar(100)         NOT NULL,
    CONSTRAINT pk_payment_timeline PRIMARY KEY (id)
);
CREATE INDEX ix_payment_timeline_key ON dbo.payment_timeline (tenant_id, idempotency_key, id);
GO

-- Append-only, as operator_audit (V11): an INSTEAD OF trigger fires once per statement, with the
-- rows the statement would change in "deleted": none changes nothing and is let through; any is
-- refused, and nothing is changed either way.
CREATE OR ALTER TRIGGER dbo.tr_payment_timeline_append_only ON dbo.payment_timeline
    INSTEAD OF UPDATE, DELETE
AS
BEGIN
    SET NOCOUNT ON;
    IF NOT EXISTS (SELECT 1 FROM deleted)
        RETURN;
    THROW 50001, 'payment_timeline is append-only', 1;
END;
GO

-- 2. The columns the console's search now compares with a Java string, made like V11's: the
-- charge ids were varchar in the database's default collation (V3, V7) and never compared; a
-- merchant order id was only inserted (V2: varchar BIN2). Against the nvarchar the driver sends,
-- each would be converted (CONVERT_IMPLICIT) and, under a SQL collation, scanned. ALTER COLUMN
-- refuses a column that an index uses: the merchant id's filtered unique index is dropped first
-- and rebuilt after, unchanged. Charge ids and merchant ids are ASCII; nvarchar only matches the
-- parameter's type, and the lengths stay those of the entities.
DROP INDEX uq_shop_order_merchant ON dbo.shop_order;
GO

ALTER TABLE dbo.payment ALTER COLUMN gateway_charge_id nvarchar(100) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE dbo.payment ALTER COLUMN late_charge_id nvarchar(100) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE dbo.shop_order ALTER COLUMN merchant_order_id nvarchar(64) COLLATE Latin1_General_100_BIN2 NULL;
GO

CREATE UNIQUE INDEX uq_shop_order_merchant ON dbo.shop_order (tenant_id, merchant_order_id)
    WHERE merchant_order_id IS NOT NULL;
GO

-- 3. The search's indexes: every term is looked up by an index seek, one query per column, never a
-- scan of the payment table. The payment id, order id and gateway key already have one
-- (pk_payment, ix_payment_order, ix_payment_gateway_key); the idempotency key's ix_payment_claim
-- leads with the tenant, which a search does not know. The tenant is searched by prefix as an
-- index range (tenant_id >= ? AND tenant_id < ?), newest first. A merchant order id is unique per
-- tenant only (uq_shop_order_merchant leads with the tenant): the console looks it up across
-- tenants.
CREATE INDEX ix_payment_gateway_charge_id ON dbo.payment (gateway_charge_id);
CREATE INDEX ix_payment_late_charge_id ON dbo.payment (late_charge_id);
CREATE INDEX ix_payment_idempotency_key ON dbo.payment (idempotency_key);
CREATE INDEX ix_payment_tenant_created ON dbo.payment (tenant_id, created_at);
CREATE INDEX ix_shop_order_merchant_order_id ON dbo.shop_order (merchant_order_id);
GO
