-- SQL Server first-run readiness (docs/sqlserver.md: "What the driver sends, and why the plans
-- seek" and "The claim refuses every caller's transaction"). Nothing here has run on a SQL Server.

-- The procedure below and the indexes rebuilt here are saved with the options of this session;
-- Flyway's JDBC session has both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. Ids that the shop compares with Java strings become nvarchar in a binary collation.
-- The Microsoft driver sends every String parameter as nvarchar (sendStringParametersAsUnicode
-- is true by default, and it stays so: tenant_id is nvarchar and may hold characters outside any
-- code page). Against a varchar column, nvarchar wins by data type precedence, so SQL Server
-- converts the column (CONVERT_IMPLICIT); under a SQL collation such as the common
-- SQL_Latin1_General_CP1_CI_AS that comparison cannot seek, so EclipseLink's
-- SELECT ... WITH (UPDLOCK) WHERE id = ? and the versioned UPDATE ... WHERE id = ? AND version = ?
-- scanned and locked rows of other payments: error 1205 under concurrent payments. With the
-- column nvarchar too, no conversion is needed and the primary key is sought. The binary
-- collation compares code points, whatever the database's default collation is (ids are UUIDs).
-- A column that belongs to a key or an index must lose that key or index before ALTER COLUMN
-- may change its type; statistics that the optimizer created are dropped by ALTER COLUMN itself.
ALTER TABLE dbo.order_line DROP CONSTRAINT fk_order_line_order;
ALTER TABLE dbo.payment DROP CONSTRAINT fk_payment_order;
DROP INDEX uq_payment_active_order ON dbo.payment;
DROP INDEX ix_payment_claim ON dbo.payment;
DROP INDEX ix_payment_order ON dbo.payment;
ALTER TABLE dbo.order_line DROP CONSTRAINT pk_order_line;
ALTER TABLE dbo.payment DROP CONSTRAINT pk_payment;
ALTER TABLE dbo.shop_order DROP CONSTRAINT pk_shop_order;
GO

ALTER TABLE dbo.shop_order ALTER COLUMN id nvarchar(36) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.order_line ALTER COLUMN order_id nvarchar(36) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.payment ALTER COLUMN id nvarchar(36) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.payment ALTER COLUMN order_id nvarchar(36) COLLATE Latin1_General_100_BIN2 NOT NULL;
ALTER TABLE dbo.payment ALTER COLUMN active_order_id nvarchar(36) COLLATE Latin1_General_100_BIN2 NULL;
-- findByClaim and findLatestByKey compare it with a Java string; it stays binary (keys are
-- case-sensitive). ix_payment_claim is then at most 200 + 510 + 4 bytes, under the 1,700-byte
-- limit of a nonclustered index key.
ALTER TABLE dbo.payment ALTER COLUMN idempotency_key nvarchar(255) COLLATE Latin1_General_100_BIN2 NOT NULL;
GO

ALTER TABLE dbo.shop_order ADD CONSTRAINT pk_shop_order PRIMARY KEY CLUSTERED (id);
ALTER TABLE dbo.order_line ADD CONSTRAINT pk_order_line PRIMARY KEY CLUSTERED (order_id, line_no);
ALTER TABLE dbo.payment ADD CONSTRAINT pk_payment PRIMARY KEY CLUSTERED (id);
ALTER TABLE dbo.order_line ADD CONSTRAINT fk_order_line_order
    FOREIGN KEY (order_id) REFERENCES dbo.shop_order (id);
ALTER TABLE dbo.payment ADD CONSTRAINT fk_payment_order
    FOREIGN KEY (order_id) REFERENCES dbo.shop_order (id);
CREATE UNIQUE INDEX uq_payment_active_order ON dbo.payment (active_order_id)
    WHERE active_order_id IS NOT NULL;
CREATE INDEX ix_payment_claim ON dbo.payment (tenant_id, idempotency_key, idempotency_attempt);
CREATE INDEX ix_payment_order ON dbo.payment (order_id);
GO

-- 2. The claim refuses to run inside any transaction of its caller, including one that the
-- session's implicit-transaction mode is about to open. The Microsoft driver runs a connection
-- whose auto-commit is off with IMPLICIT_TRANSACTIONS ON; then @@TRANCOUNT is still 0 when the
-- procedure starts, its BEGIN TRANSACTION opens two nested transactions, and its COMMIT leaves the
-- claim uncommitted inside the caller's. Bit 2 of @@OPTIONS is IMPLICIT_TRANSACTIONS.
-- Also: a value longer than its parameter would be truncated silently on the way in (and claimed
-- under another key); the parameters are one character longer than the columns and checked.
-- Otherwise the procedure is V1's.
CREATE OR ALTER PROCEDURE dbo.usp_idempotency_claim
    @tenant_id        nvarchar(101),
    @operation        varchar(101),
    @idempotency_key  varchar(256),
    @request_hash     varchar(65),
    @lease_ms         bigint,
    @ttl_s            bigint,
    @takeover_allowed bit
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    -- A claim waits at most 5 s behind another session's lock, then fails (error 1222: the
    -- shop answers 503) rather than holding its request thread for ever.
    SET LOCK_TIMEOUT 5000;

    -- The claim must commit on its own, before the operation runs; inside a caller's transaction,
    -- explicit (@@TRANCOUNT > 0) or implicit (IMPLICIT_TRANSACTIONS ON), COMMIT would only
    -- decrement @@TRANCOUNT and the claim would not be visible to retries.
    IF @@TRANCOUNT > 0 OR (@@OPTIONS & 2) = 2
        THROW 50001, 'usp_idempotency_claim must be called outside any transaction, with auto-commit on', 1;
    IF LEN(@tenant_id) > 100 OR LEN(@operation) > 100 OR LEN(@idempotency_key) > 255
            OR LEN(@request_hash) > 64
        THROW 50002, 'usp_idempotency_claim: a value is longer than its column', 1;

    DECLARE @now datetimeoffset(3) = SYSDATETIMEOFFSET();
    DECLARE @locked_until datetimeoffset(3) = DATEADD(millisecond, CAST(@lease_ms AS int), @now);
    DECLARE @expires_at datetimeoffset(3) = DATEADD(second, CAST(@ttl_s AS int), @now);
    DECLARE @won bit = 0;

    BEGIN TRANSACTION;

    IF NOT EXISTS (SELECT 1
                     FROM dbo.idempotency_record WITH (UPDLOCK, HOLDLOCK)
                    WHERE tenant_id = @tenant_id AND operation = @operation
                      AND idempotency_key = @idempotency_key)
    BEGIN
        INSERT INTO dbo.idempotency_record (tenant_id, operation, idempotency_key, request_hash,
                                            status, attempt, locked_until, created_at, expires_at)
        VALUES (@tenant_id, @operation, @idempotency_key, @request_hash,
                'PROCESSING', 1, @locked_until, @now, @expires_at);
        SET @won = 1;
    END
    ELSE
    BEGIN
        UPDATE dbo.idempotency_record
           SET request_hash = @request_hash, status = 'PROCESSING', outcome = NULL,
               attempt = attempt + 1, locked_until = @locked_until, created_at = @now,
               completed_at = NULL, expires_at = @expires_at, resource_ref = NULL,
               response_code = NULL, response_headers = NULL, response_body = NULL
         WHERE tenant_id = @tenant_id AND operation = @operation
           AND idempotency_key = @idempotency_key
           AND (status = 'RELEASED'
                OR (status = 'COMPLETED' AND expires_at <= @now)
                OR (@takeover_allowed = 1 AND status = 'PROCESSING' AND outcome IS NULL
                    AND locked_until <= @now
                    AND (request_hash = @request_hash OR expires_at <= @now)));
        IF @@ROWCOUNT = 1
            SET @won = 1;
    END

    SELECT @won AS won, tenant_id, operation, idempotency_key, request_hash, status, outcome,
           attempt, locked_until, created_at, completed_at, expires_at, response_code,
           response_headers, response_body
      FROM dbo.idempotency_record
     WHERE tenant_id = @tenant_id AND operation = @operation
       AND idempotency_key = @idempotency_key;

    COMMIT TRANSACTION;
END
GO
