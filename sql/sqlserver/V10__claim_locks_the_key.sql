-- SQL Server, second review (docs/sqlserver.md, "The claim locks the key, not a key range").
-- Nothing here has run on a SQL Server.

SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. The fingerprint is compared exactly. char(64) pads, and a padded value would compare equal
-- to a shorter one; the fingerprint is always 64 hex characters, a varchar in a binary collation
-- says so and compares code points.
ALTER TABLE dbo.idempotency_record
    ALTER COLUMN request_hash varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL;
GO

-- 2. The name of a key's lock: its scope (tenant, operation, key), each part prefixed by its
-- length so that no two scopes run together into one string, hashed with SHA-256 to fit
-- sp_getapplock's 255 characters. Two scopes with one hash would only wait for each other; the
-- primary key still decides what is stored.
CREATE OR ALTER FUNCTION dbo.idempotency_key_lock(
    @tenant_id       nvarchar(101),
    @operation       varchar(101),
    @idempotency_key varchar(256))
RETURNS nvarchar(255)
WITH SCHEMABINDING
AS
BEGIN
    RETURN N'idempotency:' + CONVERT(nvarchar(64), HASHBYTES('SHA2_256',
        CONCAT(DATALENGTH(@tenant_id), N':', @tenant_id, N'|',
               DATALENGTH(@operation), N':', CAST(@operation AS nvarchar(101)), N'|',
               DATALENGTH(@idempotency_key), N':', CAST(@idempotency_key AS nvarchar(256)))), 2);
END
GO

-- 3. The claim committed on its own (payments.charge, and local operations set to claim before
-- their transaction). It keeps V5's read WITH (UPDLOCK, HOLDLOCK), whose key-range lock makes
-- "insert if absent" atomic among these claims and lasts only this procedure's short transaction,
-- and first takes the key's own lock, the one the in-transaction claim below holds for a whole
-- business transaction: a key claimed one way is then never claimed the other way at the same
-- time. The lock wait stays 5 s: error 50004 (the shop answers 503), as 1222 did before. Guards
-- and takeover rules are V5's.
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
    SET LOCK_TIMEOUT 5000;

    IF @@TRANCOUNT > 0 OR (@@OPTIONS & 2) = 2
        THROW 50001, 'usp_idempotency_claim must be called outside any transaction, with auto-commit on', 1;
    IF LEN(@tenant_id) > 100 OR LEN(@operation) > 100 OR LEN(@idempotency_key) > 255
            OR LEN(@request_hash) > 64
        THROW 50002, 'usp_idempotency_claim: a value is longer than its column', 1;

    DECLARE @now datetimeoffset(3) = SYSDATETIMEOFFSET();
    DECLARE @locked_until datetimeoffset(3) = DATEADD(millisecond, CAST(@lease_ms AS int), @now);
    DECLARE @expires_at datetimeoffset(3) = DATEADD(second, CAST(@ttl_s AS int), @now);
    DECLARE @won bit = 0;
    DECLARE @lock_name nvarchar(255) = dbo.idempotency_key_lock(@tenant_id, @operation, @idempotency_key);
    DECLARE @granted int;

    BEGIN TRANSACTION;

    EXEC @granted = sys.sp_getapplock @Resource = @lock_name, @LockMode = 'Exclusive',
        @LockOwner = 'Transaction', @LockTimeout = 5000;
    IF @granted < 0
        THROW 50004, 'usp_idempotency_claim: the key stayed locked by another claim', 1;

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

-- 4. The claim inside the operation's transaction (V8's, redefined). V8 read the key WITH
-- (UPDLOCK, HOLDLOCK) and so held a key range, not a key, for the whole business transaction:
-- every new orders.create key in the same gap ran one at a time, a waiter past the lock wait was
-- answered 409 for a key nobody else used, and a payments.charge claim in that gap timed out into
-- 503. Now the procedure takes the key's lock (the same one as usp_idempotency_claim) owned by
-- the caller's transaction, so it is released only when that transaction commits or rolls back,
-- then reads the row under UPDLOCK without HOLDLOCK (the row's lock if it exists, no range). A
-- lock not granted within @wait_ms is error 50004
-- (the shop answers 409 with Retry-After); XACT_ABORT dooms the caller's transaction then.
--
-- sp_getapplock with @LockOwner = 'Transaction' needs an open transaction. The Microsoft driver
-- runs a connection whose auto-commit is off (a JTA transaction's, with the one-phase data source)
-- with IMPLICIT_TRANSACTIONS ON, and its transaction opens at the first statement that reads a
-- table: when the procedure is that first statement, @@TRANCOUNT is still 0 here. The procedure
-- therefore reads the key's row once without locking it, which opens the caller's transaction,
-- and checks that one is open before it asks for the lock. A transaction opened implicitly inside
-- a procedure does not raise error 266 on exit.
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
    SET XACT_ABORT ON;
    IF @@TRANCOUNT = 0 AND (@@OPTIONS & 2) = 0
        THROW 50003, 'usp_idempotency_claim_in_transaction must be called inside the operation''s transaction', 1;
    IF LEN(@tenant_id) > 100 OR LEN(@operation) > 100 OR LEN(@idempotency_key) > 255
            OR LEN(@request_hash) > 64
        THROW 50002, 'usp_idempotency_claim_in_transaction: a value is longer than its column', 1;
    SET LOCK_TIMEOUT @wait_ms;

    DECLARE @status varchar(16), @outcome varchar(16), @attempt int, @hash varchar(64),
            @locked_until datetimeoffset(3), @expires_at datetimeoffset(3);
    DECLARE @lock_name nvarchar(255) = dbo.idempotency_key_lock(@tenant_id, @operation, @idempotency_key);
    DECLARE @granted int;

    IF @@TRANCOUNT = 0
        SELECT @attempt = attempt
          FROM dbo.idempotency_record WITH (READUNCOMMITTED)
         WHERE tenant_id = @tenant_id AND operation = @operation
           AND idempotency_key = @idempotency_key;
    IF @@TRANCOUNT = 0
        THROW 50003, 'usp_idempotency_claim_in_transaction: no transaction opened for the key''s lock', 1;

    EXEC @granted = sys.sp_getapplock @Resource = @lock_name, @LockMode = 'Exclusive',
        @LockOwner = 'Transaction', @LockTimeout = @wait_ms;
    IF @granted < 0
        THROW 50004, 'usp_idempotency_claim_in_transaction: the key stayed held longer than the lock wait', 1;

    SELECT @status = NULL, @attempt = NULL;
    SELECT @status = status, @outcome = outcome, @attempt = attempt, @hash = request_hash,
           @locked_until = locked_until, @expires_at = expires_at
      FROM dbo.idempotency_record WITH (UPDLOCK)
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
