-- Idempotency: old token buckets of the shared new-key limit go (docs/scaling.md, "The new-key
-- limit of the cluster"). Each write of a bucket records when the bucket will be full again, plus
-- a minute for the servers' clocks, in expires_at (milliseconds since 1970-01-01 UTC, as Bucket4j
-- writes it); the retention job deletes the rows past it. A full bucket is what a missing row
-- starts as, so deleting one changes no answer: it only stops the table from keeping a row for
-- every tenant, operation and limit there ever was (a changed limit starts a row of its own).
--
-- Rows written before this version have no such time. They get one a week from now: by then any
-- bucket of a limit up to a week long is full again, and a bucket still in use is written again
-- long before, with its true time.
ALTER TABLE idempotency_new_key_bucket ADD COLUMN expires_at bigint NULL;

UPDATE idempotency_new_key_bucket
   SET expires_at = (extract(epoch FROM now()) * 1000)::bigint + 604800000;

CREATE INDEX ix_idempotency_new_key_bucket_expires_at ON idempotency_new_key_bucket (expires_at);
