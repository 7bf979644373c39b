-- Idempotency: old token buckets of the shared new-key limit go; what expires_at holds and why is
-- in sql/postgresql's V23.
ALTER TABLE idempotency_new_key_bucket ADD COLUMN expires_at BIGINT;

UPDATE idempotency_new_key_bucket
   SET expires_at = CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT) + 604800000;

CREATE INDEX ix_idempotency_new_key_bucket_expires_at ON idempotency_new_key_bucket (expires_at);
