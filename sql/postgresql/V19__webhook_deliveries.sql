-- Signed webhooks (events library, com.banhang.events.webhooks). The outbox's relay hands each
-- event to the webhook transport, which writes one delivery per subscriber endpoint here; the
-- dispatcher sends them, signed as the Standard Webhooks specification says, and retries each on
-- its own schedule, so that one slow or failing subscriber holds back neither the outbox nor the
-- other subscribers. The same tables as sql/h2's V19.

-- 1. One row per event and endpoint: the exact body sent on every attempt (the event's CloudEvents
-- JSON), where the delivery stands (PENDING, DELIVERED, PARKED after the last retry, DISABLED while
-- its endpoint is), the dispatcher's lease, and the last answer. The unique key makes a second
-- hand-over of the same event add nothing.
CREATE TABLE webhook_delivery (
    id              varchar(36)              NOT NULL,
    event_id        varchar(36)              NOT NULL,
    endpoint        varchar(64)              NOT NULL,
    tenant_id       varchar(100)             NOT NULL,
    body            text                     NOT NULL,
    status          varchar(10)              NOT NULL,
    attempts        integer                  NOT NULL DEFAULT 0,
    next_attempt_at timestamp with time zone NOT NULL,
    lease_owner     varchar(64)              NULL,
    lease_until     timestamp with time zone NULL,
    last_status     integer                  NULL,
    last_error      varchar(1000)            NULL,
    created_at      timestamp with time zone NOT NULL,
    delivered_at    timestamp with time zone NULL,
    CONSTRAINT pk_webhook_delivery PRIMARY KEY (id),
    CONSTRAINT uq_webhook_delivery_event_endpoint UNIQUE (event_id, endpoint),
    CONSTRAINT ck_webhook_delivery_status
        CHECK (status IN ('PENDING', 'DELIVERED', 'PARKED', 'DISABLED'))
);
-- The dispatcher's scan: pending rows only, by when they are due.
CREATE INDEX ix_webhook_delivery_due ON webhook_delivery (next_attempt_at)
    WHERE status = 'PENDING';
-- The operator's list of parked deliveries.
CREATE INDEX ix_webhook_delivery_parked ON webhook_delivery (created_at)
    WHERE status = 'PARKED';
-- Disabling and re-enabling an endpoint touch its deliveries only.
CREATE INDEX ix_webhook_delivery_endpoint ON webhook_delivery (endpoint, status);

-- 2. The delivery log: one row per attempt, what the subscriber answered (or why nothing was
-- sent), and how long it took.
CREATE TABLE webhook_delivery_attempt (
    id             varchar(36)              NOT NULL,
    delivery_id    varchar(36)              NOT NULL,
    attempt_number integer                  NOT NULL,
    attempted_at   timestamp with time zone NOT NULL,
    http_status    integer                  NULL,
    error          varchar(1000)            NULL,
    duration_ms    bigint                   NOT NULL,
    CONSTRAINT pk_webhook_delivery_attempt PRIMARY KEY (id),
    CONSTRAINT fk_webhook_delivery_attempt_delivery FOREIGN KEY (delivery_id)
        REFERENCES webhook_delivery (id) ON DELETE CASCADE
);
CREATE INDEX ix_webhook_delivery_attempt_delivery
    ON webhook_delivery_attempt (delivery_id, attempted_at);

-- 3. Endpoints that are switched off: by a 410 Gone from the subscriber or by an operator. A row
-- here stops every send to the endpoint until an operator re-enables it (deletes the row).
CREATE TABLE webhook_endpoint_state (
    endpoint        varchar(64)              NOT NULL,
    disabled_at     timestamp with time zone NOT NULL,
    disabled_reason varchar(1000)            NOT NULL,
    CONSTRAINT pk_webhook_endpoint_state PRIMARY KEY (endpoint)
);
