-- Idempotency keys (seed 000 s3). One row per (tenant, operation, key); the primary key is the
-- only arbiter of who owns a key.
CREATE TABLE idempotency_record (
    tenant_id        varchar(100)  NOT NULL,
    operation        varchar(100)  NOT NULL,
    idempotency_key  varchar(255)  NOT NULL,
    request_hash     varchar(64)   NOT NULL,
    status           varchar(16)   NOT NULL,
    outcome          varchar(16)   NULL,
    attempt          integer       NOT NULL,
    locked_until     timestamptz   NOT NULL,
    created_at       timestamptz   NOT NULL,
    completed_at     timestamptz   NULL,
    expires_at       timestamptz   NOT NULL,
    resource_ref     varchar(512)  NULL,
    response_code    integer       NULL,
    response_headers varchar(4000) NULL,
    response_body    bytea         NULL,
    CONSTRAINT pk_idempotency_record PRIMARY KEY (tenant_id, operation, idempotency_key),
    CONSTRAINT ck_idempotency_record_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'RELEASED')),
    CONSTRAINT ck_idempotency_record_outcome CHECK (outcome IS NULL OR outcome = 'UNKNOWN')
);

-- Retention purges by expiry; reconciliation and the console look for old processing rows.
CREATE INDEX ix_idempotency_record_expires ON idempotency_record (expires_at);
CREATE INDEX ix_idempotency_record_processing ON idempotency_record (operation, created_at)
    WHERE status = 'PROCESSING';

-- The claim: one statement, one transaction. Returns the row as it is after the call and whether
-- this call owns it. A caller owns the key when it inserted it, when the key was released or had
-- expired, or when it took over an expired lease that the caller allows to be taken over (local
-- operations only, outcome not unknown, same fingerprint unless the key itself has expired: the
-- abandoned attempt committed nothing, so a retry after expiry is a new request). Every takeover
-- raises the attempt
-- number that fences the writes of earlier owners. Same rules as sql/sqlserver and the H2 store.
CREATE FUNCTION idempotency_claim(
    p_tenant    varchar,
    p_operation varchar,
    p_key       varchar,
    p_hash      varchar,
    p_lease_ms  bigint,
    p_ttl_s     bigint,
    p_takeover  boolean)
RETURNS TABLE (
    won              boolean,
    tenant_id        varchar,
    operation        varchar,
    idempotency_key  varchar,
    request_hash     varchar,
    status           varchar,
    outcome          varchar,
    attempt          integer,
    locked_until     timestamptz,
    created_at       timestamptz,
    completed_at     timestamptz,
    expires_at       timestamptz,
    response_code    integer,
    response_headers varchar,
    response_body    bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_now timestamptz;
    v_won boolean;
BEGIN
    -- More than one round only when the row vanishes (released or purged) between the steps.
    FOR round IN 1..10 LOOP
        v_now := clock_timestamp();
        INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash, status,
                                        attempt, locked_until, created_at, expires_at)
        VALUES (p_tenant, p_operation, p_key, p_hash, 'PROCESSING', 1,
                v_now + p_lease_ms * interval '1 millisecond', v_now,
                v_now + p_ttl_s * interval '1 second')
        ON CONFLICT ON CONSTRAINT pk_idempotency_record DO NOTHING;
        v_won := FOUND;

        IF NOT v_won THEN
            UPDATE idempotency_record AS r
               SET request_hash = p_hash, status = 'PROCESSING', outcome = NULL,
                   attempt = r.attempt + 1,
                   locked_until = v_now + p_lease_ms * interval '1 millisecond',
                   created_at = v_now, completed_at = NULL,
                   expires_at = v_now + p_ttl_s * interval '1 second',
                   resource_ref = NULL, response_code = NULL, response_headers = NULL,
                   response_body = NULL
             WHERE r.tenant_id = p_tenant AND r.operation = p_operation AND r.idempotency_key = p_key
               AND (r.status = 'RELEASED'
                    OR (r.status = 'COMPLETED' AND r.expires_at <= v_now)
                    OR (p_takeover AND r.status = 'PROCESSING' AND r.outcome IS NULL
                        AND r.locked_until <= v_now
                        AND (r.request_hash = p_hash OR r.expires_at <= v_now)));
            v_won := FOUND;
        END IF;

        RETURN QUERY
            SELECT v_won, r.tenant_id, r.operation, r.idempotency_key, r.request_hash, r.status,
                   r.outcome, r.attempt, r.locked_until, r.created_at, r.completed_at,
                   r.expires_at, r.response_code, r.response_headers, r.response_body
              FROM idempotency_record AS r
             WHERE r.tenant_id = p_tenant AND r.operation = p_operation
               AND r.idempotency_key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
    END LOOP;
    RAISE EXCEPTION 'idempotency key kept vanishing while being claimed';
END
$$;
