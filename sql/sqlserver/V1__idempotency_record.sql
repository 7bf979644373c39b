-- Idempotency keys (seed 000 s3) on SQL Server, the production target.
-- Keys are case-sensitive (CONTRACT s3): the key columns use a binary collation, whatever the
-- database's default collation is.
CREATE TABLE dbo.idempotency_record (
    tenant_id        nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    operation        varchar(100)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    idempotency_key  varchar(255)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    request_hash     char(64)          NOT NULL,
    status           varchar(16)       NOT NULL,
    outcome          varchar(16)       NULL,
    attempt          int               NOT NULL,
    locked_until     datetimeoffset(3) NOT NULL,
    created_at       datetimeoffset(3) NOT NULL,
    completed_at     datetimeoffset(3) NULL,
    expires_at       datetimeoffset(3) NOT NULL,
    resource_ref     nvarchar(512)     NULL,
    response_code    int               NULL,
    response_headers nvarchar(4000)    NULL,
    response_body    varbinary(max)    NULL,
    CONSTRAINT pk_idempotency_record PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT ck_idempotency_record_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'RELEASED')),
    CONSTRAINT ck_idempotency_record_outcome CHECK (outcome IS NULL OR outcome = 'UNKNOWN')
);
GO

CREATE INDEX ix_idempotency_record_expires ON dbo.idempotency_record (expires_at);
CREATE INDEX ix_idempotency_record_processing ON dbo.idempotency_record (operation, created_at)
    WHERE status = 'PROCESSING';
GO

-- The claim (seed 001's usp_IdemThanhToan_Gianh, generalised): in its own short transaction, read
-- the key WITH (UPDLOCK, HOLDLOCK) - a key-range lock when the row is absent, so a concurrent caller
-- queues at this read instead of failing on the primary key with error 2627 - then insert it, or
-- take it over under the shared rules (released or expired key; expired lease of a local operation
-- with the same fingerprint and no unknown outcome), raising the attempt number that fences earlier
-- owners. Returns the row and whether this call owns it.
CREATE OR ALTER PROCEDURE dbo.usp_idempotency_claim
    @tenant_id        nvarchar(100),
    @operation        varchar(100),
    @idempotency_key  varchar(255),
    @request_hash     char(64),
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

    -- The claim must commit on its own, before the operation runs; inside a caller's transaction
    -- COMMIT would only decrement @@TRANCOUNT and the claim would not be visible to retries.
    IF @@TRANCOUNT > 0
        THROW 50001, 'usp_idempotency_claim must be called outside any transaction', 1;

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
