-- Payments: the processor's webhooks, received (docs/payments.md, "Webhooks in"). One row per
-- event the processor sent, keyed by (provider, event id): a second delivery of the same event
-- finds the row and adds nothing but a count. The receiving endpoint writes the row after checking
-- its signature and answers at once; the processing that settles, confirms or flags the payment
-- runs after, off the request thread, and writes the outcome here. The statuses are described in
-- sql/postgresql's V20.
CREATE TABLE gateway_event (
    provider         VARCHAR(40)              NOT NULL,
    event_id         VARCHAR(100)             NOT NULL,
    event_type       VARCHAR(60)              NOT NULL,
    charge_id        VARCHAR(100),
    gateway_key      VARCHAR(100),
    payment_id       VARCHAR(36),
    payload          CHARACTER LARGE OBJECT   NOT NULL,
    verification     VARCHAR(200)             NOT NULL,
    status           VARCHAR(10)              NOT NULL,
    detail           VARCHAR(1000),
    deliveries       INTEGER                  DEFAULT 1 NOT NULL,
    attempts         INTEGER                  DEFAULT 0 NOT NULL,
    received_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    last_received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    next_attempt_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    processed_at     TIMESTAMP WITH TIME ZONE,
    handled_at       TIMESTAMP WITH TIME ZONE,
    handled_by       VARCHAR(100),
    handled_reason   VARCHAR(500),
    CONSTRAINT pk_gateway_event PRIMARY KEY (provider, event_id),
    CONSTRAINT ck_gateway_event_status
        CHECK (status IN ('PENDING', 'SETTLED', 'CONFIRMED', 'FLAGGED', 'PARKED'))
);
-- H2 has no partial index: the processor's scan and the operator's list lead with the status.
CREATE INDEX ix_gateway_event_status ON gateway_event (status, next_attempt_at);
CREATE INDEX ix_gateway_event_received ON gateway_event (received_at);
CREATE INDEX ix_gateway_event_payment ON gateway_event (payment_id);
