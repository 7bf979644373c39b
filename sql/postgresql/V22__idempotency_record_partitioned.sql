-- Retention by partition (docs/scaling.md, "Retention by partition"): the key table becomes
-- partitioned by expiry day, so that the retention drops a whole expired day (a detach and a DROP
-- TABLE, metadata only) instead of deleting its rows one by one.
--
-- Layout: one range partition per UTC day of expires_at, named idempotency_record_pYYYYMMDD,
-- created ahead by the retention job (idempotency_partition_create below); a DEFAULT partition
-- that takes any row whose day has no partition (a TTL longer than the horizon, a job that did not
-- run, processing rows rescued from a dropped day), which the batched purge keeps small; and, on an
-- installation that had rows, the old table itself attached as the range partition
-- idempotency_record_legacy, from MINVALUE up to the end of the day its last row expires: no row
-- is copied. The batched purge empties it as its rows expire, and the job drops it with its range.
--
-- PostgreSQL requires every unique constraint of a partitioned table to hold the partition column,
-- so the primary key is (tenant_id, operation, idempotency_key, expires_at): it no longer refuses a
-- second row of a key with another expiry. Every writer of a new row therefore serializes on the
-- key first, with the transaction-scoped advisory lock of V8 (idempotency_claim below takes it
-- too, on the same text), then reads, then inserts or takes over.
--
-- A big installation prepares the attach beforehand, CONCURRENTLY, so that this migration is
-- metadata only (docs/scaling.md, "Migrating an existing table"):
--   CREATE UNIQUE INDEX CONCURRENTLY ux_idempotency_record_legacy_expiry
--       ON idempotency_record (tenant_id, operation, idempotency_key, expires_at);
--   ALTER TABLE idempotency_record ADD CONSTRAINT ck_idempotency_record_legacy_range
--       CHECK (expires_at < '2027-01-15 00:00:00+00') NOT VALID;   -- a UTC midnight past every row
--   ALTER TABLE idempotency_record VALIDATE CONSTRAINT ck_idempotency_record_legacy_range;
-- The migration then takes the bound from that constraint; without it, ATTACH scans the table to
-- prove the range, and without the index it builds one, both under the migration's lock.

LOCK TABLE idempotency_record IN ACCESS EXCLUSIVE MODE;

ALTER TABLE idempotency_record RENAME TO idempotency_record_legacy;
ALTER TABLE idempotency_record_legacy RENAME CONSTRAINT pk_idempotency_record
    TO pk_idempotency_record_legacy;
ALTER INDEX ix_idempotency_record_expires RENAME TO ix_idempotency_record_legacy_expires;
ALTER INDEX ix_idempotency_record_processing RENAME TO ix_idempotency_record_legacy_processing;

-- Same columns, in the same order, as V1 and V4 left them.
CREATE TABLE idempotency_record (
    tenant_id         varchar(100)  NOT NULL,
    operation         varchar(100)  NOT NULL,
    idempotency_key   varchar(255)  NOT NULL,
    request_hash      varchar(64)   NOT NULL,
    status            varchar(16)   NOT NULL,
    outcome           varchar(16)   NULL,
    attempt           integer       NOT NULL,
    locked_until      timestamptz   NOT NULL,
    created_at        timestamptz   NOT NULL,
    completed_at      timestamptz   NULL,
    expires_at        timestamptz   NOT NULL,
    resource_ref      varchar(512)  NULL,
    response_code     integer       NULL,
    response_headers  varchar(4000) NULL,
    response_body     bytea         NULL,
    last_check        varchar(32)   NULL,
    last_check_detail varchar(1000) NULL,
    last_checked_at   timestamptz   NULL,
    CONSTRAINT pk_idempotency_record
        PRIMARY KEY (tenant_id, operation, idempotency_key, expires_at),
    CONSTRAINT ck_idempotency_record_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'RELEASED')),
    CONSTRAINT ck_idempotency_record_outcome CHECK (outcome IS NULL OR outcome = 'UNKNOWN')
) PARTITION BY RANGE (expires_at);

-- The batched purge of the default and legacy partitions finds rows by expiry; reconciliation and
-- the console look for old processing rows, and a dropped day's processing rows are found by it.
CREATE INDEX ix_idempotency_record_expires ON idempotency_record (expires_at);
CREATE INDEX ix_idempotency_record_processing ON idempotency_record (operation, created_at)
    WHERE status = 'PROCESSING';

CREATE TABLE idempotency_record_default PARTITION OF idempotency_record DEFAULT;

DO $$
DECLARE
    v_bound   timestamptz;
    v_last    timestamptz;
    v_columns text;
    v_index   regclass;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM idempotency_record_legacy) THEN
        -- A fresh installation, or one without keys: nothing to keep.
        DROP TABLE idempotency_record_legacy;
        RETURN;
    END IF;
    SELECT substring(pg_get_constraintdef(c.oid) FROM '''([^'']+)''')::timestamptz INTO v_bound
      FROM pg_constraint c
     WHERE c.conrelid = 'idempotency_record_legacy'::regclass
       AND c.conname = 'ck_idempotency_record_legacy_range' AND c.convalidated;
    IF v_bound IS NULL THEN
        SELECT max(expires_at) INTO v_last FROM idempotency_record_legacy;
        v_bound := (date_trunc('day', greatest(v_last, now()) AT TIME ZONE 'UTC')
                    + interval '1 day') AT TIME ZONE 'UTC';
    END IF;
    -- The new primary key needs a unique constraint of the same columns on the partition: one on
    -- the index prepared beforehand (instant), else one on an index built here.
    SELECT string_agg(a.attnum::text, ' ' ORDER BY k.ord) INTO v_columns
      FROM unnest(ARRAY['tenant_id', 'operation', 'idempotency_key', 'expires_at'])
           WITH ORDINALITY AS k(name, ord)
      JOIN pg_attribute a ON a.attrelid = 'idempotency_record_legacy'::regclass
                         AND a.attname = k.name;
    SELECT i.indexrelid::regclass INTO v_index
      FROM pg_index i
     WHERE i.indrelid = 'idempotency_record_legacy'::regclass AND i.indisunique AND i.indisvalid
       AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indkey::text = v_columns
     LIMIT 1;
    IF v_index IS NULL THEN
        CREATE UNIQUE INDEX ux_idempotency_record_legacy_expiry
            ON idempotency_record_legacy (tenant_id, operation, idempotency_key, expires_at);
        v_index := 'ux_idempotency_record_legacy_expiry'::regclass;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = v_index) THEN
        EXECUTE format('ALTER TABLE idempotency_record_legacy ADD CONSTRAINT %I'
                       ' UNIQUE USING INDEX %I', v_index::text, v_index::text);
    END IF;
    -- The old key (without the expiry) cannot stay a primary key beside the parent's.
    ALTER TABLE idempotency_record_legacy DROP CONSTRAINT pk_idempotency_record_legacy;
    EXECUTE format('ALTER TABLE idempotency_record ATTACH PARTITION idempotency_record_legacy'
                   ' FOR VALUES FROM (MINVALUE) TO (%L)', v_bound);
END
$$;

-- The three maintenance functions below run with their owner's rights (SECURITY DEFINER, the
-- migration login's): the runtime login that calls them from the retention job has no right to
-- create or drop tables (docs/deployment.md revokes CREATE on the schema), and needs none. Their
-- search_path is the one this migration ran with, so that no caller's path changes what they
-- name. Each touches only the key table's own partitions: a day's name is built from a date, a
-- detach only takes a partition of idempotency_record whose range ended, and a drop only a table
-- named idempotency_record_detached_*.

-- The partitions of the key table, with the end of each one's range (NULL for the default), for
-- the retention job: a partition whose range ended is all expired.
CREATE FUNCTION idempotency_partitions()
RETURNS TABLE (partition_name name, range_end timestamptz, is_default boolean)
LANGUAGE sql STABLE AS $$
    SELECT c.relname,
           substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz,
           pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'idempotency_record'::regclass
     ORDER BY 2 NULLS LAST, 1
$$;

-- Creates and attaches the partition of one UTC day, unless it exists. Answers 'created',
-- 'exists', 'busy' (another node maintains the partitions right now, or a lock was not had within
-- p_lock_timeout_ms), or 'occupied' (the default partition holds rows of that day: they stay
-- there, for the batched purge, and the day gets no partition). Several nodes run the job at the
-- same moment: the maintenance lock (advisory, two-key form, apart from the keys' one-key locks)
-- lets one of them do it. ATTACH takes SHARE UPDATE EXCLUSIVE on the key table, which claims do
-- not wait for, and a brief ACCESS EXCLUSIVE on the default partition to check it.
CREATE FUNCTION idempotency_partition_create(p_day date, p_lock_timeout_ms bigint)
RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    v_name  text := 'idempotency_record_p' || to_char(p_day, 'YYYYMMDD');
    v_from  timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
    v_to    timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
    IF NOT pg_try_advisory_xact_lock(29, 3) THEN
        RETURN 'busy';
    END IF;
    IF to_regclass(v_name) IS NOT NULL THEN
        RETURN 'exists';
    END IF;
    PERFORM set_config('lock_timeout', p_lock_timeout_ms || 'ms', true);
    EXECUTE format('CREATE TABLE %I (LIKE idempotency_record INCLUDING DEFAULTS'
                   ' INCLUDING CONSTRAINTS)', v_name);
    BEGIN
        EXECUTE format('ALTER TABLE idempotency_record ATTACH PARTITION %I'
                       ' FOR VALUES FROM (%L) TO (%L)', v_name, v_from, v_to);
    EXCEPTION
        WHEN check_violation THEN
            EXECUTE format('DROP TABLE %I', v_name);
            RETURN 'occupied';
        WHEN lock_not_available THEN
            EXECUTE format('DROP TABLE %I', v_name);
            RETURN 'busy';
        WHEN invalid_object_definition THEN
            -- The range overlaps another partition (the legacy one): nothing to create.
            EXECUTE format('DROP TABLE %I', v_name);
            RETURN 'exists';
    END;
    RETURN 'created';
END
$$;

-- Detaches one partition whose range has ended and gives its processing rows back to the key
-- table, in ONE transaction: the detach (not CONCURRENTLY) holds ACCESS EXCLUSIVE on the key table
-- until the commit, so no claim ever sees a processing key missing; its processing rows land in
-- the default partition, since no partition covers their day any more. Finished rows (completed,
-- released) stay in the detached table, renamed idempotency_record_detached_<name>, which the job
-- counts and drops afterwards (idempotency_partition_drop), outside this lock. Answers the number
-- of rows given back, or NULL when the lock was not had ('busy'). A partition whose range has not
-- ended is refused: its rows are not all expired.
CREATE FUNCTION idempotency_partition_detach(p_partition text, p_lock_timeout_ms bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    v_end     timestamptz;
    v_columns text;
    v_kept    bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(29, 3) THEN
        RETURN NULL;
    END IF;
    SELECT p.range_end INTO v_end FROM idempotency_partitions() p
     WHERE p.partition_name = p_partition AND NOT p.is_default;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    IF v_end IS NULL OR v_end > now() THEN
        RAISE EXCEPTION 'partition % holds rows that have not expired (its range ends at %)',
            p_partition, v_end;
    END IF;
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO v_columns
      FROM pg_attribute
     WHERE attrelid = 'idempotency_record'::regclass AND attnum > 0 AND NOT attisdropped;
    PERFORM set_config('lock_timeout', p_lock_timeout_ms || 'ms', true);
    BEGIN
        EXECUTE format('ALTER TABLE idempotency_record DETACH PARTITION %I', p_partition);
    EXCEPTION
        WHEN lock_not_available THEN
            RETURN NULL;
    END;
    EXECUTE format('INSERT INTO idempotency_record (%s) SELECT %s FROM %I'
                   ' WHERE status = ''PROCESSING''', v_columns, v_columns, p_partition);
    GET DIAGNOSTICS v_kept = ROW_COUNT;
    EXECUTE format('ALTER TABLE %I RENAME TO %I', p_partition,
                   'idempotency_record_detached_' || p_partition);
    RETURN v_kept;
END
$$;

-- Counts the finished rows of a detached partition and drops it; NULL when another node holds the
-- maintenance lock, -1 when the table is gone already (another node dropped it). No lock on the
-- key table: the detached table is no partition of it any more.
CREATE FUNCTION idempotency_partition_drop(p_detached text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    v_rows bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(29, 3) THEN
        RETURN NULL;
    END IF;
    IF to_regclass(p_detached) IS NULL OR p_detached NOT LIKE 'idempotency\_record\_detached\_%' THEN
        RETURN -1;
    END IF;
    EXECUTE format('SELECT count(*) FROM %I WHERE status <> ''PROCESSING''', p_detached)
        INTO v_rows;
    EXECUTE format('DROP TABLE %I', p_detached);
    RETURN v_rows;
END
$$;

-- The claim of V1, unchanged in its rules, now serialized on the key by the advisory lock of V8
-- (same text, same hash), since the primary key alone no longer stops a second row of the key
-- with another expiry. The lock is held to the end of the claim's own transaction; after it, each
-- statement reads what an earlier holder committed. A takeover that changes expires_at moves the
-- row to its new day's partition (one UPDATE: other writers waiting on the row see it moved).
CREATE OR REPLACE FUNCTION idempotency_claim(
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
    PERFORM pg_advisory_xact_lock(hashtextextended(
        length(p_tenant) || ':' || p_tenant || length(p_operation) || ':' || p_operation || p_key,
        0));
    -- More than one round only when the row vanishes (purged) between the steps.
    FOR round IN 1..10 LOOP
        v_now := clock_timestamp();
        IF NOT EXISTS (SELECT 1 FROM idempotency_record AS r
                        WHERE r.tenant_id = p_tenant AND r.operation = p_operation
                          AND r.idempotency_key = p_key) THEN
            INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash,
                                            status, attempt, locked_until, created_at, expires_at)
            VALUES (p_tenant, p_operation, p_key, p_hash, 'PROCESSING', 1,
                    v_now + p_lease_ms * interval '1 millisecond', v_now,
                    v_now + p_ttl_s * interval '1 second');
            v_won := true;
        ELSE
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

-- Today and the eight days after it (idempotency.retention.partition-days-ahead's default) get their
-- partitions now, so that the keys written before the first retention run land in their day and
-- not in the default partition, whose rows would keep those days from ever getting one. The legacy
-- partition of an existing table covers the days up to its bound: those answer 'exists'.
DO $$
BEGIN
    FOR v_day IN 0..8 LOOP
        PERFORM idempotency_partition_create(CAST(now() AT TIME ZONE 'UTC' AS date) + v_day, 5000);
    END LOOP;
END
$$;

-- How a retention run removed its rows: in batches only, or with whole partitions dropped.
ALTER TABLE idempotency_purge_run ADD COLUMN method varchar(16);
ALTER TABLE idempotency_purge_run ADD COLUMN partitions_dropped integer;
