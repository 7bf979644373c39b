-- The claim of a local operation, made inside the operation's own transaction (docs/performance.md,
-- "One commit per new key"). Unlike usp_idempotency_claim (V5), this procedure opens no transaction
-- and writes nothing: it must run inside the caller's, where its read under UPDLOCK, HOLDLOCK locks
-- the key (the row, or the key range where the row would be) until the caller's transaction ends.
-- Every other claim of the same key waits at that read; it then reads what the owner committed:
-- the completed row, which it replays, or the key still free after a rollback, and then it owns it.
-- The caller writes the row once, already completed, just before it commits (an INSERT for a new
-- key, an UPDATE fenced by the attempt read here for a takeover).
--
-- The wait is bounded by @wait_ms (error 1222 when it runs out; XACT_ABORT then rolls the caller's
-- transaction back, which the caller does anyway); SET options inside a procedure end with it, so
-- the caller's settings are untouched. HOLDLOCK on a key that has no row locks the range up to the
-- next key: two new keys that fall into the same gap of the index wait for each other until the
-- first commits (docs/sqlserver.md says what to measure on a first run). Returns one row: won,
-- the row as the claim leaves it (when won: the claim the caller now holds, status PROCESSING,
-- attempt raised over the row it replaces; otherwise the row as found), and the database's clock.
-- Takeover rules are usp_idempotency_claim's.
CREATE OR ALTER PROCEDURE dbo.usp_idempotency_claim_in_transaction
    @tenant_id        nvarchar(101),
    @operation        varchar(101),
    @idempotency_key  varchar(256),
    @request_hash     varchar(65),
    @lease_ms         bigint,
    @ttl_s            bigint,
    @takeover_allowed bit,
    @wait_ms          int
AS
BEGIN
    SET NOCOUNT ON;
    -- A lock wait that runs out (1222) must end the procedure and doom the caller's transaction,
    -- not let it go on to answer "won" for a key it never read.
    SET XACT_ABORT ON;
    -- Outside a transaction the lock would end with the read and protect nothing.
    IF @@TRANCOUNT = 0 AND (@@OPTIONS & 2) = 0
        THROW 50003, 'usp_idempotency_claim_in_transaction must be called inside the operation''s transaction', 1;
    IF LEN(@tenant_id) > 100 OR LEN(@operation) > 100 OR LEN(@idempotency_key) > 255
            OR LEN(@request_hash) > 64
        THROW 50002, 'usp_idempotency_claim_in_transaction: a value is longer than its column', 1;
    SET LOCK_TIMEOUT @wait_ms;

    DECLARE @status varchar(16), @outcome varchar(16), @attempt int, @hash varchar(64),
            @locked_until datetimeoffset(3), @expires_at datetimeoffset(3);
    SELECT @status = status, @outcome = outcome, @attempt = attempt, @hash = request_hash,
           @locked_until = locked_until, @expires_at = expires_at
      FROM dbo.idempotency_record WITH (UPDLOCK, HOLDLOCK)
     WHERE tenant_id = @tenant_id AND operation = @operation
       AND idempotency_key = @idempotency_key;

    DECLARE @now datetimeoffset(3) = SYSDATETIMEOFFSET();
    DECLARE @won bit = CASE
        WHEN @status IS NULL THEN 1
        WHEN @status = 'RELEASED' THEN 1
        WHEN @status = 'COMPLETED' AND @expires_at <= @now THEN 1
        WHEN @takeover_allowed = 1 AND @status = 'PROCESSING' AND @outcome IS NULL
             AND @locked_until <= @now AND (@hash = @request_hash OR @expires_at <= @now) THEN 1
        ELSE 0 END;

    IF @won = 1
        SELECT CAST(1 AS bit) AS won, @tenant_id AS tenant_id, @operation AS operation,
               @idempotency_key AS idempotency_key, @request_hash AS request_hash,
               'PROCESSING' AS status, CAST(NULL AS varchar(16)) AS outcome,
               COALESCE(@attempt, 0) + 1 AS attempt,
               DATEADD(millisecond, CAST(@lease_ms AS int), @now) AS locked_until,
               @now AS created_at, CAST(NULL AS datetimeoffset(3)) AS completed_at,
               DATEADD(second, CAST(@ttl_s AS int), @now) AS expires_at,
               CAST(NULL AS int) AS response_code, CAST(NULL AS nvarchar(4000)) AS response_headers,
               CAST(NULL AS varbinary(max)) AS response_body, @now AS read_at;
    ELSE
        SELECT CAST(0 AS bit) AS won, tenant_id, operation, idempotency_key, request_hash, status,
               outcome, attempt, locked_until, created_at, completed_at, expires_at,
               response_code, response_headers, response_body, @now AS read_at
          FROM dbo.idempotency_record
         WHERE tenant_id = @tenant_id AND operation = @operation
           AND idempotency_key = @idempotency_key;
END
GO
