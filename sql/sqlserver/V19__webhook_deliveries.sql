-- Signed webhooks (events library, com.banhang.events.webhooks): the same tables as sql/h2 and
-- sql/postgresql's V19. Nothing here has run on a SQL Server.

-- The filtered indexes below are saved with the options of this session; Flyway's JDBC session has
-- both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- 1. One row per event and subscriber endpoint: the exact body sent on every attempt (the event's
-- CloudEvents JSON), where the delivery stands (PENDING, DELIVERED, PARKED after the last retry,
-- DISABLED while its endpoint is), the dispatcher's lease, and the last answer. The unique key
-- makes a second hand-over of the same event add nothing.
-- Every column compared with a Java string is nvarchar in the binary collation (the driver sends
-- nvarchar; V11), so it is sought without a conversion.
CREATE TABLE dbo.webhook_delivery (
    id              nvarchar(36)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    event_id        nvarchar(36)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    endpoint        nvarchar(64)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    tenant_id       nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    body            nvarchar(max)     NOT NULL,
    status          nvarchar(10)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    attempts        int               NOT NULL CONSTRAINT df_webhook_delivery_attempts DEFAULT 0,
    next_attempt_at datetimeoffset(3) NOT NULL,
    lease_owner     nvarchar(64)      COLLATE Latin1_General_100_BIN2 NULL,
    lease_until     datetimeoffset(3) NULL,
    last_status     int               NULL,
    last_error      nvarchar(1000)    NULL,
    created_at      datetimeoffset(3) NOT NULL,
    delivered_at    datetimeoffset(3) NULL,
    CONSTRAINT pk_webhook_delivery PRIMARY KEY (id),
    CONSTRAINT uq_webhook_delivery_event_endpoint UNIQUE (event_id, endpoint),
    CONSTRAINT ck_webhook_delivery_status
        CHECK (status IN (N'PENDING', N'DELIVERED', N'PARKED', N'DISABLED'))
);
GO

-- The dispatcher's scan: pending rows only, by when they are due.
CREATE INDEX ix_webhook_delivery_due ON dbo.webhook_delivery (next_attempt_at)
    WHERE status = N'PENDING';
-- The operator's list of parked deliveries.
CREATE INDEX ix_webhook_delivery_parked ON dbo.webhook_delivery (created_at)
    WHERE status = N'PARKED';
-- Disabling and re-enabling an endpoint touch its deliveries only.
CREATE INDEX ix_webhook_delivery_endpoint ON dbo.webhook_delivery (endpoint, status);
GO

-- 2. The delivery log: one row per attempt, what the subscriber answered (or why nothing was
-- sent), and how long it took.
CREATE TABLE dbo.webhook_delivery_attempt (
    id             nvarchar(36)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    delivery_id    nvarchar(36)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    attempt_number int               NOT NULL,
    attempted_at   datetimeoffset(3) NOT NULL,
    http_status    int               NULL,
    error          nvarchar(1000)    NULL,
    duration_ms    bigint            NOT NULL,
    CONSTRAINT pk_webhook_delivery_attempt PRIMARY KEY (id),
    CONSTRAINT fk_webhook_delivery_attempt_delivery FOREIGN KEY (delivery_id)
        REFERENCES dbo.webhook_delivery (id) ON DELETE CASCADE
);
GO

CREATE INDEX ix_webhook_delivery_attempt_delivery
    ON dbo.webhook_delivery_attempt (delivery_id, attempted_at);
GO

-- 3. Endpoints that are switched off: by a 410 Gone from the subscriber or by an operator. A row
-- here stops every send to the endpoint until an operator re-enables it (deletes the row).
CREATE TABLE dbo.webhook_endpoint_state (
    endpoint        nvarchar(64)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    disabled_at     datetimeoffset(3) NOT NULL,
    disabled_reason nvarchar(1000)    NOT NULL,
    CONSTRAINT pk_webhook_endpoint_state PRIMARY KEY (endpoint)
);
GO
