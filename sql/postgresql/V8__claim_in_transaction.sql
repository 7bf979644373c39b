-- The claim of a local operation, made inside the operation's own transaction (docs/performance.md,
-- "One commit per new key"). Nothing is written here: the caller takes a transaction-scoped
-- advisory lock on the key, so that every other claim of the same key waits until the caller's
-- transaction ends, and reads the row after the lock is held. The caller then writes the row once,
-- already completed, just before its transaction commits (an INSERT for a new key, or an UPDATE
-- fenced by the attempt read here for a takeover), and the commit releases the lock. A waiter that
-- gets the lock next reads what the owner committed: the completed row, which it replays, or
-- nothing after a rollback, and then it owns the key itself. The primary key still refuses a
-- second row if a writer that takes no lock got there first.
--
-- The wait is bounded by p_wait_ms (SQLSTATE 55P03 when it runs out); lock_timeout is restored for
-- the rest of the caller's transaction. The lock and the read are two statements on purpose: in READ
-- COMMITTED each statement of this VOLATILE function takes a new snapshot, so the read sees a row
-- that the previous owner committed while this call waited for the lock.
--
-- Returns one row: won, then the row as the claim leaves it (when won: the claim the caller now
-- holds, status PROCESSING, attempt raised over the row it replaces; otherwise the row as found),
-- then the database's clock. Takeover rules are idempotency_claim's (V1).
CREATE FUNCTION idempotency_claim_in_transaction(
    p_tenant    varchar,
    p_operation varchar,
    p_key       varchar,
    p_hash      varchar,
    p_lease_ms  bigint,
    p_ttl_s     bigint,
    p_takeover  boolean,
    p_wait_ms   bigint)
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
    response_body    bytea,
    read_at          timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
    v_lock_timeout text := current_setting('lock_timeout');
    v_now          timestamptz;
    v_row          idempotency_record%ROWTYPE;
    v_won          boolean;
BEGIN
    -- Called outside a transaction, the lock would end with this statement: the caller (the
    -- library's gate) calls it only inside the operation's JTA transaction.
    PERFORM set_config('lock_timeout', p_wait_ms || 'ms', true);
    -- Length-prefixed parts, so that no two scopes spell the same text.
    PERFORM pg_advisory_xact_lock(hashtextextended(
        length(p_tenant) || ':' || p_tenant || length(p_operation) || ':' || p_operation || p_key,
        0));
    PERFORM set_config('lock_timeout', v_lock_timeout, true);

    v_now := clock_timestamp();
    SELECT * INTO v_row FROM idempotency_record AS r
     WHERE r.tenant_id = p_tenant AND r.operation = p_operation AND r.idempotency_key = p_key;

    IF NOT FOUND THEN
        RETURN QUERY SELECT true, p_tenant, p_operation, p_key, p_hash,
            'PROCESSING'::varchar, NULL::varchar, 1,
            v_now + p_lease_ms * interval '1 millisecond', v_now, NULL::timestamptz,
            v_now + p_ttl_s * interval '1 second', NULL::integer, NULL::varchar, NULL::bytea,
            v_now;
        RETURN;
    END IF;

    v_won := v_row.status = 'RELEASED'
          OR (v_row.status = 'COMPLETED' AND v_row.expires_at <= v_now)
          OR (p_takeover AND v_row.status = 'PROCESSING' AND v_row.outcome IS NULL
              AND v_row.locked_until <= v_now
              AND (v_row.request_hash = p_hash OR v_row.expires_at <= v_now));
    IF v_won THEN
        RETURN QUERY SELECT true, p_tenant, p_operation, p_key, p_hash,
            'PROCESSING'::varchar, NULL::varchar, v_row.attempt + 1,
            v_now + p_lease_ms * interval '1 millisecond', v_now, NULL::timestamptz,
            v_now + p_ttl_s * interval '1 second', NULL::integer, NULL::varchar, NULL::bytea,
            v_now;
    ELSE
        RETURN QUERY SELECT false, v_row.tenant_id, v_row.operation, v_row.idempotency_key,
            v_row.request_hash, v_row.status, v_row.outcome, v_row.attempt, v_row.locked_until,
            v_row.created_at, v_row.completed_at, v_row.expires_at, v_row.response_code,
            v_row.response_headers, v_row.response_body, v_now;
    END IF;
END
$$;
