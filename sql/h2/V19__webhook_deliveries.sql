-- Signed webhooks (events library, com.banhang.events.webhooks). The outbox's relay hands each
-- event to the webhook transport, which writes one delivery per subscriber endpoint here; the
-- dispatcher sends them, signed as the Standard Webhooks specification says, and retries each on
-- its own schedule, so that one slow or failing subscriber holds back neither the outbox nor the
-- other subscribers.

-- 1. One row per event and endpoint: the exact body sent on every attempt (the event's CloudEvents
-- JSON), where the delivery stands (PENDING, DELIVERED, PARKED after the last retry, DISABLED while
-- its endpoint is), the dispatcher's lease, and the last answer. The unique key makes a second
-- hand-over of the same event add nothing.
CREATE TABLE webhook_delivery (
    id              VARCHAR(36)              NOT NULL,
    event_id        VARCHAR(36)              NOT NULL,
    endpoint        VARCHAR(64)              NOT NULL,
    tenant_id       VARCHAR(100)             NOT NULL,
    body            CHARACTER LARGE OBJECT   NOT NULL,
    status          VARCHAR(10)              NOT NULL,
    attempts        INTEGER                  DEFAULT 0 NOT NULL,
    next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL,
    lease_owner     VARCHAR(64),
    lease_until     TIMESTAMP WITH TIME ZONE,
    last_status     INTEGER,
    last_error      VARCHAR(1000),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    delivered_at    TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_webhook_delivery PRIMARY KEY (id),
    CONSTRAINT uq_webhook_delivery_event_endpoint UNIQUE (event_id, endpoint),
    CONSTRAINT ck_webhook_delivery_status
        CHECK (status IN ('PENDING', 'DELIVERED', 'PARKED', 'DISABLED'))
);
-- H2 has no partial index: the dispatcher's scan and the operator's lists lead with the status.
CREATE INDEX ix_webhook_delivery_due ON webhook_delivery (status, next_attempt_at);
-- Disabling and re-enabling an endpoint touch its deliveries only.
CREATE INDEX ix_webhook_delivery_endpoint ON webhook_delivery (endpoint, status);

-- 2. The delivery log: one row per attempt, what the subscriber answered (or why nothing was
-- sent), and how long it took.
CREATE TABLE webhook_delivery_attempt (
    id             VARCHAR(36)              NOT NULL,
    delivery_id    VARCHAR(36)              NOT NULL,
    attempt_number INTEGER                  NOT NULL,
    attempted_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    http_status    INTEGER,
    error          VARCHAR(1000),
    duration_ms    BIGINT                   NOT NULL,
    CONSTRAINT pk_webhook_delivery_attempt PRIMARY KEY (id),
    CONSTRAINT fk_webhook_delivery_attempt_delivery FOREIGN KEY (delivery_id)
        REFERENCES webhook_delivery (id) ON DELETE CASCADE
);
CREATE INDEX ix_webhook_delivery_attempt_delivery
    ON webhook_delivery_attempt (delivery_id, attempted_at);

-- 3. Endpoints that are switched off: by a 410 Gone from the subscriber or by an operator. A row
-- here stops every send to the endpoint until an operator re-enables it (deletes the row).
CREATE TABLE webhook_endpoint_state (
    endpoint        VARCHAR(64)              NOT NULL,
    disabled_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    disabled_reason VARCHAR(1000)            NOT NULL,
    CONSTRAINT pk_webhook_endpoint_state PRIMARY KEY (endpoint)
);
