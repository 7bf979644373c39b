-- Payments: the processor's webhooks, received (docs/payments.md, "Webhooks in"). One row per
-- event the processor sent, keyed by (provider, event id): a second delivery of the same event
-- finds the row and adds nothing but a count. The receiving endpoint writes the row after checking
-- its signature and answers at once; the processing that settles, confirms or flags the payment
-- runs after, off the request thread, and writes the outcome here. The same table as sql/h2's and
-- sql/sqlserver's V20.
--
-- status: PENDING (to process, due at next_attempt_at), SETTLED (it settled the payment: an
-- unknown outcome completed, or a late charge recorded), CONFIRMED (the payment already said the
-- same: nothing to do), FLAGGED (it contradicts the shop's record: for an operator, never
-- applied), PARKED (it could not be processed: an unknown type, an unreadable body, or too many
-- failures; an operator may retry it).
CREATE TABLE gateway_event (
    provider        varchar(40)              NOT NULL,
    event_id        varchar(100)             NOT NULL,
    event_type      varchar(60)              NOT NULL,
    charge_id       varchar(100)             NULL,
    gateway_key     varchar(100)             NULL,
    payment_id      varchar(36)              NULL,
    payload         text                     NOT NULL,
    verification    varchar(200)             NOT NULL,
    status          varchar(10)              NOT NULL,
    detail          varchar(1000)            NULL,
    deliveries      integer                  NOT NULL DEFAULT 1,
    attempts        integer                  NOT NULL DEFAULT 0,
    received_at     timestamp with time zone NOT NULL,
    last_received_at timestamp with time zone NOT NULL,
    next_attempt_at timestamp with time zone NOT NULL,
    processed_at    timestamp with time zone NULL,
    handled_at      timestamp with time zone NULL,
    handled_by      varchar(100)             NULL,
    handled_reason  varchar(500)             NULL,
    CONSTRAINT pk_gateway_event PRIMARY KEY (provider, event_id),
    CONSTRAINT ck_gateway_event_status
        CHECK (status IN ('PENDING', 'SETTLED', 'CONFIRMED', 'FLAGGED', 'PARKED'))
);
-- The processor's scan: pending rows only, by when they are due.
CREATE INDEX ix_gateway_event_due ON gateway_event (next_attempt_at) WHERE status = 'PENDING';
-- The operator's list, newest first, by status or all.
CREATE INDEX ix_gateway_event_status ON gateway_event (status, received_at);
CREATE INDEX ix_gateway_event_received ON gateway_event (received_at);
-- A payment's events, for its timeline.
CREATE INDEX ix_gateway_event_payment ON gateway_event (payment_id);
