-- What the operator console needs (docs/operations.md).

-- Idempotency library: the last check of a processing key by whoever settles it (payments'
-- reconciliation writes its outcome here), so that the console can show and filter it and the
-- scheduled reader can page past keys that only an operator can settle.
ALTER TABLE dbo.idempotency_record ADD
    last_check        varchar(32)       NULL,
    last_check_detail nvarchar(1000)    NULL,
    last_checked_at   datetimeoffset(3) NULL;

-- Idempotency library: one row per purge run (scheduled or by an operator), on any node.
CREATE TABLE dbo.idempotency_purge_run (
    id           bigint IDENTITY(1, 1) NOT NULL,
    started_at   datetimeoffset(3)     NOT NULL,
    node         nvarchar(255)         NOT NULL,
    started_by   nvarchar(100)         NOT NULL,
    rows_deleted int                   NOT NULL,
    duration_ms  bigint                NOT NULL,
    CONSTRAINT pk_idempotency_purge_run PRIMARY KEY (id)
);
CREATE INDEX ix_idempotency_purge_run_started ON dbo.idempotency_purge_run (started_at);

-- Operator console: every operator action, append-only. The application only inserts and reads;
-- the trigger refuses an UPDATE or DELETE from anyone else too.
CREATE TABLE dbo.operator_audit (
    id              bigint IDENTITY(1, 1) NOT NULL,
    occurred_at     datetimeoffset(3)     NOT NULL,
    operator_name   nvarchar(100)         NOT NULL,
    action          varchar(32)           NOT NULL,
    tenant_id       nvarchar(100)         COLLATE Latin1_General_100_BIN2 NULL,
    operation       varchar(100)          NULL,
    idempotency_key varchar(255)          COLLATE Latin1_General_100_BIN2 NULL,
    reason          nvarchar(1000)        NULL,
    result          varchar(32)           NOT NULL,
    detail          nvarchar(2000)        NULL,
    CONSTRAINT pk_operator_audit PRIMARY KEY (id)
);
CREATE INDEX ix_operator_audit_occurred ON dbo.operator_audit (occurred_at);
GO
CREATE OR ALTER TRIGGER dbo.tr_operator_audit_append_only ON dbo.operator_audit
    INSTEAD OF UPDATE, DELETE
AS
BEGIN
    THROW 50001, 'operator_audit is append-only', 1;
END;
GO
