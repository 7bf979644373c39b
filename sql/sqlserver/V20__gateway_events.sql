-- Payments: the processor's webhooks, received (docs/payments.md, "Webhooks in"): the same table
-- as sql/h2's and sql/postgresql's V20, whose comments describe the statuses. Nothing here has run
-- on a SQL Server.

-- The filtered index below is saved with the options of this session; Flyway's JDBC session has
-- both on, a hand-run sqlcmd does not unless given -I.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO

-- Every column compared with a Java string is nvarchar in the binary collation (the driver sends
-- nvarchar; V11), so it is sought without a conversion.
CREATE TABLE dbo.gateway_event (
    provider         nvarchar(40)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    event_id         nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    event_type       nvarchar(60)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    charge_id        nvarchar(100)     COLLATE Latin1_General_100_BIN2 NULL,
    gateway_key      nvarchar(100)     COLLATE Latin1_General_100_BIN2 NULL,
    payment_id       nvarchar(36)      COLLATE Latin1_General_100_BIN2 NULL,
    payload          nvarchar(max)     NOT NULL,
    verification     nvarchar(200)     NOT NULL,
    status           nvarchar(10)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    detail           nvarchar(1000)    NULL,
    deliveries       int               NOT NULL CONSTRAINT df_gateway_event_deliveries DEFAULT 1,
    attempts         int               NOT NULL CONSTRAINT df_gateway_event_attempts DEFAULT 0,
    received_at      datetimeoffset(3) NOT NULL,
    last_received_at datetimeoffset(3) NOT NULL,
    next_attempt_at  datetimeoffset(3) NOT NULL,
    processed_at     datetimeoffset(3) NULL,
    handled_at       datetimeoffset(3) NULL,
    handled_by       nvarchar(100)     NULL,
    handled_reason   nvarchar(500)     NULL,
    CONSTRAINT pk_gateway_event PRIMARY KEY (provider, event_id),
    CONSTRAINT ck_gateway_event_status
        CHECK (status IN (N'PENDING', N'SETTLED', N'CONFIRMED', N'FLAGGED', N'PARKED'))
);
GO
CREATE INDEX ix_gateway_event_due ON dbo.gateway_event (next_attempt_at)
    WHERE status = N'PENDING';
CREATE INDEX ix_gateway_event_status ON dbo.gateway_event (status, received_at);
CREATE INDEX ix_gateway_event_received ON dbo.gateway_event (received_at);
CREATE INDEX ix_gateway_event_payment ON dbo.gateway_event (payment_id);
GO
