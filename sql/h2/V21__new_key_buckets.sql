-- Idempotency: the rate limit of new keys, shared by every server of the shop (docs/idempotency.md,
-- "Rate limit of new keys"): one row per token bucket, Bucket4j's serialised state, read and
-- written inside one transaction that holds the row with SELECT ... FOR UPDATE. The columns are
-- described in sql/postgresql's V21.
CREATE TABLE idempotency_new_key_bucket (
    id    VARCHAR(450)    NOT NULL,
    state VARBINARY(4096),
    CONSTRAINT pk_idempotency_new_key_bucket PRIMARY KEY (id)
);
