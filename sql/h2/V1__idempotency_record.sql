-- Idempotency keys (seed 000 s3) on H2, the embedded default. H2 has no SQL procedures: the claim
-- routine is H2IdempotencyStore, with the rules of sql/postgresql/V1__idempotency_record.sql.
CREATE TABLE idempotency_record (
    tenant_id        VARCHAR(100)             NOT NULL,
    operation        VARCHAR(100)             NOT NULL,
    idempotency_key  VARCHAR(255)             NOT NULL,
    request_hash     VARCHAR(64)              NOT NULL,
    status           VARCHAR(16)              NOT NULL,
    outcome          VARCHAR(16),
    attempt          INTEGER                  NOT NULL,
    locked_until     TIMESTAMP WITH TIME ZONE NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    completed_at     TIMESTAMP WITH TIME ZONE,
    expires_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    resource_ref     VARCHAR(512),
    response_code    INTEGER,
    response_headers VARCHAR(4000),
    response_body    BLOB,
    CONSTRAINT pk_idempotency_record PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT ck_idempotency_record_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'RELEASED')),
    CONSTRAINT ck_idempotency_record_outcome CHECK (outcome IS NULL OR outcome = 'UNKNOWN')
);

CREATE INDEX ix_idempotency_record_expires ON idempotency_record (expires_at);
CREATE INDEX ix_idempotency_record_processing ON idempotency_record (operation, status, created_at);
