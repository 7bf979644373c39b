-- Events out (docs/events.md): the outbox and the inbox. The same tables as sql/h2 and
-- sql/postgresql's V18. Nothing here has run on a SQL Server.

-- The filtered indexes below are saved with the options of this session; Flyway's JDBC session has
-- both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. The outbox: one row per event, written in the same transaction as the business rows it
-- describes, so that an event exists if and only if that transaction committed. The columns are
-- the ones change-data-capture tools expect of an outbox (id, aggregate_type, aggregate_id, type,
-- payload), so the relay can later be replaced by one without a migration; the relay's own columns
-- follow. aggregate_sequence numbers the events of one aggregate from 1: the relay publishes only
-- the lowest unpublished one of each aggregate, which keeps their order across nodes.
-- Every column compared with a Java string is nvarchar in the binary collation (the driver sends
-- nvarchar; V11), so it is sought without a conversion.
CREATE TABLE dbo.outbox_event (
    id                 nvarchar(36)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    aggregate_type     nvarchar(32)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    aggregate_id       nvarchar(64)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    aggregate_sequence bigint            NOT NULL,
    type               nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    tenant_id          nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    payload            nvarchar(max)     NOT NULL,
    created_at         datetimeoffset(3) NOT NULL,
    attempts           int               NOT NULL CONSTRAINT df_outbox_event_attempts DEFAULT 0,
    next_attempt_at    datetimeoffset(3) NOT NULL,
    lease_owner        nvarchar(64)      COLLATE Latin1_General_100_BIN2 NULL,
    lease_until        datetimeoffset(3) NULL,
    published_at       datetimeoffset(3) NULL,
    parked_at          datetimeoffset(3) NULL,
    last_error         nvarchar(1000)    NULL,
    CONSTRAINT pk_outbox_event PRIMARY KEY (id),
    CONSTRAINT uq_outbox_event_sequence UNIQUE (aggregate_type, aggregate_id, aggregate_sequence)
);
GO

-- The relay's scan: unpublished rows only, in the order they were written.
CREATE INDEX ix_outbox_event_unpublished ON dbo.outbox_event (created_at)
    WHERE published_at IS NULL;
-- Retention's scan: published rows by age.
CREATE INDEX ix_outbox_event_published ON dbo.outbox_event (published_at)
    WHERE published_at IS NOT NULL;
GO

-- 2. The inbox (docs/events.md, "Consuming exactly once"): one row per event a consumer handled,
-- written in the consumer's own transaction; the primary key makes a second delivery a no-op.
CREATE TABLE dbo.inbox_event (
    source      nvarchar(200)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    event_id    nvarchar(200)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    received_at datetimeoffset(3) NOT NULL,
    CONSTRAINT pk_inbox_event PRIMARY KEY (source, event_id)
);
GO
