-- Idempotency: old token buckets of the shared new-key limit go; what expires_at holds and why is
-- in sql/postgresql's V23. Nothing here has run on a SQL Server.
ALTER TABLE dbo.idempotency_new_key_bucket ADD expires_at bigint NULL;
GO

UPDATE dbo.idempotency_new_key_bucket
   SET expires_at = DATEDIFF_BIG(MILLISECOND, '1970-01-01', SYSUTCDATETIME()) + 604800000;
GO

CREATE INDEX ix_idempotency_new_key_bucket_expires_at
    ON dbo.idempotency_new_key_bucket (expires_at);
GO
