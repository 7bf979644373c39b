-- Idempotency library: one row per re-seal run (docs/idempotency.md, "Rotating a key"): who or what
-- started it, on which node, which key ids the re-sealed bodies came from and which one seals them
-- now, the rows moved, left and still sealed with an old key, and how the run ended. Operators read it in
-- the console's Retention view before they remove an old key from the ring. The same table as
-- sql/h2 and sql/postgresql's V12. Nothing here has run on a SQL Server.
--
-- Made like idempotency_purge_run (V4): names in nvarchar, since the driver sends every String as
-- nvarchar; key ids, the status and the bodies' key ids are ASCII by construction (a key id is
-- 1 to 32 letters, digits, '.', '-' or '_'), so varchar. Nothing filters on them: no collation or
-- index question arises. The table is only inserted into and read, newest first.
CREATE TABLE dbo.idempotency_reseal_run (
    id              bigint IDENTITY(1, 1) NOT NULL,
    started_at      datetimeoffset(3)     NOT NULL,
    node            nvarchar(255)         NOT NULL,
    started_by      nvarchar(100)         NOT NULL,
    from_key_ids    varchar(400)          NOT NULL,
    to_key_id       varchar(32)           NULL,
    rows_resealed   int                   NOT NULL,
    rows_changed    int                   NOT NULL,
    rows_unreadable int                   NOT NULL,
    rows_remaining  bigint                NOT NULL,
    status          varchar(16)           NOT NULL,
    detail          nvarchar(1000)        NULL,
    duration_ms     bigint                NOT NULL,
    CONSTRAINT pk_idempotency_reseal_run PRIMARY KEY (id),
    CONSTRAINT ck_idempotency_reseal_run_status CHECK (status IN ('COMPLETE', 'INCOMPLETE', 'FAILED'))
);
CREATE INDEX ix_idempotency_reseal_run_started ON dbo.idempotency_reseal_run (started_at);
GO
