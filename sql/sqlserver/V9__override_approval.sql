-- Second-operator approval of override resolutions (docs/operations.md, "Overrides need a second
-- operator"): one row per proposal; a different operator approves it, which runs the resolution.
CREATE TABLE dbo.operator_override_proposal (
    id              bigint IDENTITY(1, 1) NOT NULL,
    proposed_at     datetimeoffset(3)     NOT NULL,
    proposed_by     nvarchar(100)         NOT NULL,
    tenant_id       nvarchar(100)         COLLATE Latin1_General_100_BIN2 NOT NULL,
    idempotency_key varchar(255)          COLLATE Latin1_General_100_BIN2 NOT NULL,
    charge_id       nvarchar(255)         NOT NULL,
    reason          nvarchar(1000)        NOT NULL,
    status          varchar(16)           NOT NULL,
    decided_by      nvarchar(100)         NULL,
    decided_at      datetimeoffset(3)     NULL,
    CONSTRAINT pk_operator_override_proposal PRIMARY KEY (id)
);
CREATE INDEX ix_operator_override_proposal_key
    ON dbo.operator_override_proposal (tenant_id, idempotency_key, status);
