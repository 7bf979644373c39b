-- Retention by partition on SQL Server (docs/sqlserver.md, "Retention by partition").
-- Written, not run here: no SQL Server has run this script.
--
-- The key table partitioned by UTC day of expires_at: a partition function (RANGE RIGHT, one
-- boundary per UTC midnight) and its scheme, the clustered primary key and every index aligned on
-- it, so that an expired day is emptied by TRUNCATE TABLE ... WITH (PARTITIONS (n)) and its
-- boundary merged away: metadata, not a DELETE per row. Partition 1 (before the lowest boundary)
-- is the stragglers' partition, like PostgreSQL's default one: the processing rows of the dropped
-- days stay there, and the batched purge keeps it small. The last partition (from the highest
-- boundary on) takes rows beyond the days created ahead.
--
-- A fresh installation (an empty table) is converted here. A table with rows is left as it is:
-- converting it rebuilds the clustered index, a copy of every row, which a migration run at the
-- application's start must not do unasked. docs/sqlserver.md gives the DBA's statements (ONLINE
-- where the edition has it); the retention finds out at each run whether the table is
-- partitioned, and keeps the batched purge until it is.

SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- How a retention run removed its rows: in batches only, or with whole partitions emptied.
ALTER TABLE dbo.idempotency_purge_run ADD
    method             varchar(16) NULL,
    partitions_dropped int         NULL;
GO

-- The boundaries: yesterday's UTC midnight and the next nine; the retention splits more ahead.
DECLARE @today date = CAST(SYSUTCDATETIME() AS date);
DECLARE @boundaries nvarchar(max) = N'';
DECLARE @d int = -1;
WHILE @d <= 8
BEGIN
    SET @boundaries = @boundaries + CASE WHEN @d = -1 THEN N'' ELSE N', ' END
        + N'''' + CONVERT(nvarchar(40), TODATETIMEOFFSET(CAST(DATEADD(day, @d, @today) AS datetime2(3)), 0), 127) + N'''';
    SET @d = @d + 1;
END
EXEC (N'CREATE PARTITION FUNCTION pf_idempotency_record_expiry (datetimeoffset(3))'
    + N' AS RANGE RIGHT FOR VALUES (' + @boundaries + N')');
GO

CREATE PARTITION SCHEME ps_idempotency_record_expiry
    AS PARTITION pf_idempotency_record_expiry ALL TO ([PRIMARY]);
GO

-- A fresh installation: the clustered primary key holds the expiry (a partitioned unique index
-- must hold its partition column) and lies on the scheme, and so does every index. Rebuilt only
-- when the table is empty: nothing is copied.
IF NOT EXISTS (SELECT 1 FROM dbo.idempotency_record)
BEGIN
    ALTER TABLE dbo.idempotency_record DROP CONSTRAINT pk_idempotency_record;
    ALTER TABLE dbo.idempotency_record ADD CONSTRAINT pk_idempotency_record
        PRIMARY KEY CLUSTERED (tenant_id, operation, idempotency_key, expires_at)
        ON ps_idempotency_record_expiry (expires_at);
    CREATE INDEX ix_idempotency_record_expires ON dbo.idempotency_record (expires_at)
        WITH (DROP_EXISTING = ON) ON ps_idempotency_record_expiry (expires_at);
    CREATE INDEX ix_idempotency_record_processing ON dbo.idempotency_record (operation, created_at)
        WHERE status = 'PROCESSING'
        WITH (DROP_EXISTING = ON) ON ps_idempotency_record_expiry (expires_at);
END
GO

-- Whether the key table lies on the scheme (its clustered index does); the retention asks at
-- every run, since a DBA converts an existing table when it suits them.
CREATE OR ALTER FUNCTION dbo.idempotency_record_partitioned()
RETURNS bit
AS
BEGIN
    RETURN CASE WHEN EXISTS (
        SELECT 1
          FROM sys.indexes AS i
          JOIN sys.partition_schemes AS s ON s.data_space_id = i.data_space_id
         WHERE i.object_id = OBJECT_ID(N'dbo.idempotency_record') AND i.index_id IN (0, 1)
           AND s.name = N'ps_idempotency_record_expiry') THEN 1 ELSE 0 END;
END
GO

-- The retention's step by partition; one row: partitioned, partitions_created,
-- partitions_dropped, rows_dropped, processing_kept, skipped.
--
-- 1. Days ahead: for each UTC midnight from today to @days_ahead days on without a boundary,
--    SPLIT RANGE. The split cuts the last partition, which holds only rows beyond the horizon, so
--    it moves few rows or none.
-- 2. Each expired day: while partition 2 ([lowest boundary, second boundary)) ended before now,
--    in ONE transaction: the table locked exclusively (TABLOCKX, a wait of 500 ms at most), the
--    day's processing rows copied aside, the partition truncated, those rows put back (they land
--    in partition 2 again: their expiry is in it), then MERGE RANGE of the lowest boundary, which
--    joins partition 2 to partition 1: it moves the rows of the partition it removes, only the
--    processing rows just put back. No claim sees a processing key missing: every claim reads the
--    table, and waits for the lock until the commit.
-- Several nodes run it at once: sp_getapplock (session, no wait) lets one do the work; the others
-- answer 'busy'. EXECUTE AS OWNER: TRUNCATE and ALTER PARTITION FUNCTION need rights the
-- application's login does not have.
CREATE OR ALTER PROCEDURE dbo.usp_idempotency_partition_retention
    @days_ahead int
WITH EXECUTE AS OWNER
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    -- Every DDL and the exclusive lock give up after 500 ms (error 1222) rather than queue the
    -- claims behind them; the next run tries again. A constant, as V10's claims have theirs.
    SET LOCK_TIMEOUT 500;

    DECLARE @created int = 0, @dropped int = 0, @rows bigint = 0, @kept bigint = 0;
    DECLARE @day_rows bigint, @day_kept bigint;
    DECLARE @skipped nvarchar(1000) = N'';

    IF dbo.idempotency_record_partitioned() = 0
    BEGIN
        SELECT CAST(0 AS bit) AS partitioned, 0 AS partitions_created, 0 AS partitions_dropped,
               CAST(0 AS bigint) AS rows_dropped, CAST(0 AS bigint) AS processing_kept,
               N'' AS skipped;
        RETURN;
    END

    DECLARE @granted int;
    EXEC @granted = sys.sp_getapplock @Resource = N'idempotency:partition-maintenance',
        @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 0;
    IF @granted < 0
    BEGIN
        SELECT CAST(1 AS bit) AS partitioned, 0 AS partitions_created, 0 AS partitions_dropped,
               CAST(0 AS bigint) AS rows_dropped, CAST(0 AS bigint) AS processing_kept,
               N'another node maintains the partitions' AS skipped;
        RETURN;
    END

    BEGIN TRY
        DECLARE @function_id int =
            (SELECT function_id FROM sys.partition_functions
              WHERE name = N'pf_idempotency_record_expiry');
        DECLARE @today date = CAST(SYSUTCDATETIME() AS date);
        DECLARE @boundary datetimeoffset(3);
        DECLARE @d int = 0;
        WHILE @d <= @days_ahead
        BEGIN
            SET @boundary = TODATETIMEOFFSET(CAST(DATEADD(day, @d, @today) AS datetime2(3)), 0);
            IF NOT EXISTS (SELECT 1 FROM sys.partition_range_values
                            WHERE function_id = @function_id
                              AND CAST(value AS datetimeoffset(3)) = @boundary)
               AND @boundary > (SELECT MAX(CAST(value AS datetimeoffset(3)))
                                  FROM sys.partition_range_values
                                 WHERE function_id = @function_id)
            BEGIN
                ALTER PARTITION SCHEME ps_idempotency_record_expiry NEXT USED [PRIMARY];
                ALTER PARTITION FUNCTION pf_idempotency_record_expiry() SPLIT RANGE (@boundary);
                SET @created = @created + 1;
            END
            SET @d = @d + 1;
        END

        DECLARE @lowest datetimeoffset(3), @second datetimeoffset(3);
        WHILE 1 = 1
        BEGIN
            SELECT @lowest = CAST(value AS datetimeoffset(3)) FROM sys.partition_range_values
             WHERE function_id = @function_id AND boundary_id = 1;
            SELECT @second = CAST(value AS datetimeoffset(3)) FROM sys.partition_range_values
             WHERE function_id = @function_id AND boundary_id = 2;
            IF @second IS NULL OR @second > SYSDATETIMEOFFSET()
                BREAK;

            BEGIN TRANSACTION;
            SELECT TOP (0) * INTO #kept FROM dbo.idempotency_record;
            INSERT INTO #kept
            SELECT * FROM dbo.idempotency_record WITH (TABLOCKX, HOLDLOCK)
             WHERE $PARTITION.pf_idempotency_record_expiry(expires_at) = 2
               AND status = 'PROCESSING';
            SET @day_kept = @@ROWCOUNT;
            -- The partition's row count from the catalogue: counting the rows would read the day.
            SELECT @day_rows = SUM(p.rows) FROM sys.partitions AS p
             WHERE p.object_id = OBJECT_ID(N'dbo.idempotency_record') AND p.index_id IN (0, 1)
               AND p.partition_number = 2;
            TRUNCATE TABLE dbo.idempotency_record WITH (PARTITIONS (2));
            INSERT INTO dbo.idempotency_record SELECT * FROM #kept;
            ALTER PARTITION FUNCTION pf_idempotency_record_expiry() MERGE RANGE (@lowest);
            COMMIT TRANSACTION;
            DROP TABLE #kept;
            SET @dropped = @dropped + 1;
            SET @rows = @rows + @day_rows - @day_kept;
            SET @kept = @kept + @day_kept;
        END
    END TRY
    BEGIN CATCH
        IF @@TRANCOUNT > 0
            ROLLBACK TRANSACTION;
        IF OBJECT_ID(N'tempdb..#kept') IS NOT NULL
            DROP TABLE #kept;
        -- 1222: a lock was not had within 500 ms; the next run tries again.
        IF ERROR_NUMBER() <> 1222
        BEGIN
            EXEC sys.sp_releaseapplock @Resource = N'idempotency:partition-maintenance',
                @LockOwner = 'Session';
            THROW;
        END
        SET @skipped = N'a lock was not had within 500 ms';
    END CATCH

    EXEC sys.sp_releaseapplock @Resource = N'idempotency:partition-maintenance',
        @LockOwner = 'Session';
    SELECT CAST(1 AS bit) AS partitioned, @created AS partitions_created,
           @dropped AS partitions_dropped, @rows AS rows_dropped, @kept AS processing_kept,
           @skipped AS skipped;
END
GO
