-- Idempotency: the rate limit of new keys, shared by every server of the shop (docs/idempotency.md,
-- "Rate limit of new keys"; docs/scaling.md). One row per token bucket: a tenant's new keys for one
-- operation under one configured limit, so that a changed limit starts a bucket of its own. The
-- state is Bucket4j's serialised bucket (its tokens and when it was last refilled), read and
-- written inside one transaction that holds the row with SELECT ... FOR UPDATE, so that servers
-- taking tokens at the same time take them one after the other. Bucket4j's PostgreSQL module writes
-- this table; the library's own code writes the same table on H2 and SQL Server. The same table as
-- sql/h2's and sql/sqlserver's V21.
--
-- id: the tenant, the operation and the limit ("<tenant>\n<operation>\n<tokens>/<duration>"), or
-- "sha256:" and the hash of that text when it is longer than the column. state: NULL only for the
-- moment between the row's insert and its first update.
CREATE TABLE idempotency_new_key_bucket (
    id    varchar(450) NOT NULL,
    state bytea        NULL,
    CONSTRAINT pk_idempotency_new_key_bucket PRIMARY KEY (id)
);
