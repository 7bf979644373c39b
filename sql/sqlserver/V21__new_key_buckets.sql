-- Idempotency: the rate limit of new keys, shared by every server of the shop (docs/idempotency.md,
-- "Rate limit of new keys"): the same table as sql/h2's and sql/postgresql's V21, whose comments
-- describe the columns. The row is held with WITH (UPDLOCK, HOLDLOCK) rather than FOR UPDATE.
-- Nothing here has run on a SQL Server.

-- The id is compared with a Java string, which the driver sends as nvarchar (V11): nvarchar in the
-- binary collation, so it is sought without a conversion. 450 characters are 900 bytes, the most
-- an index key may have.
CREATE TABLE dbo.idempotency_new_key_bucket (
    id    nvarchar(450)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    state varbinary(max) NULL,
    CONSTRAINT pk_idempotency_new_key_bucket PRIMARY KEY (id)
);
GO
