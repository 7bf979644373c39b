-- Events out (docs/events.md). The outbox: one row per event, written in the same transaction as
-- the business rows it describes, so that an event exists if and only if that transaction
-- committed. The columns are the ones change-data-capture tools expect of an outbox (id,
-- aggregate_type, aggregate_id, type, payload), so the relay can later be replaced by one without a
-- migration; the relay's own columns (attempts, next_attempt_at, the lease, published_at, parked_at)
-- follow. aggregate_sequence numbers the events of one aggregate from 1: the relay publishes only
-- the lowest unpublished one of each aggregate, which keeps their order across nodes.
CREATE TABLE outbox_event (
    id                 VARCHAR(36)              NOT NULL,
    aggregate_type     VARCHAR(32)              NOT NULL,
    aggregate_id       VARCHAR(64)              NOT NULL,
    aggregate_sequence BIGINT                   NOT NULL,
    type               VARCHAR(100)             NOT NULL,
    tenant_id          VARCHAR(100)             NOT NULL,
    payload            CHARACTER LARGE OBJECT   NOT NULL,
    created_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    attempts           INTEGER                  DEFAULT 0 NOT NULL,
    next_attempt_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    lease_owner        VARCHAR(64),
    lease_until        TIMESTAMP WITH TIME ZONE,
    published_at       TIMESTAMP WITH TIME ZONE,
    parked_at          TIMESTAMP WITH TIME ZONE,
    last_error         VARCHAR(1000),
    CONSTRAINT pk_outbox_event PRIMARY KEY (id),
    CONSTRAINT uq_outbox_event_sequence UNIQUE (aggregate_type, aggregate_id, aggregate_sequence)
);
-- H2 has no partial index: the relay's scan and retention's each lead with their own column.
CREATE INDEX ix_outbox_event_unpublished ON outbox_event (published_at, created_at);

-- The inbox (docs/events.md, "Consuming exactly once"): one row per event a consumer handled,
-- written in the consumer's own transaction; the primary key makes a second delivery a no-op.
CREATE TABLE inbox_event (
    source      VARCHAR(200)             NOT NULL,
    event_id    VARCHAR(200)             NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_inbox_event PRIMARY KEY (source, event_id)
);
