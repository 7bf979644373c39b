-- Events out (docs/events.md). The outbox: one row per event, written in the same transaction as
-- the business rows it describes, so that an event exists if and only if that transaction
-- committed. The columns are the ones change-data-capture tools expect of an outbox (id,
-- aggregate_type, aggregate_id, type, payload), so the relay can later be replaced by one without a
-- migration; the relay's own columns (attempts, next_attempt_at, the lease, published_at, parked_at)
-- follow. aggregate_sequence numbers the events of one aggregate from 1: the relay publishes only
-- the lowest unpublished one of each aggregate, which keeps their order across nodes.
CREATE TABLE outbox_event (
    id                 varchar(36)              NOT NULL,
    aggregate_type     varchar(32)              NOT NULL,
    aggregate_id       varchar(64)              NOT NULL,
    aggregate_sequence bigint                   NOT NULL,
    type               varchar(100)             NOT NULL,
    tenant_id          varchar(100)             NOT NULL,
    payload            text                     NOT NULL,
    created_at         timestamp with time zone NOT NULL,
    attempts           integer                  NOT NULL DEFAULT 0,
    next_attempt_at    timestamp with time zone NOT NULL,
    lease_owner        varchar(64)              NULL,
    lease_until        timestamp with time zone NULL,
    published_at       timestamp with time zone NULL,
    parked_at          timestamp with time zone NULL,
    last_error         varchar(1000)            NULL,
    CONSTRAINT pk_outbox_event PRIMARY KEY (id),
    CONSTRAINT uq_outbox_event_sequence UNIQUE (aggregate_type, aggregate_id, aggregate_sequence)
);
-- The relay's scan: unpublished rows only, in the order they were written.
CREATE INDEX ix_outbox_event_unpublished ON outbox_event (created_at) WHERE published_at IS NULL;
-- Retention's scan: published rows by age.
CREATE INDEX ix_outbox_event_published ON outbox_event (published_at) WHERE published_at IS NOT NULL;

-- The inbox (docs/events.md, "Consuming exactly once"): one row per event a consumer handled,
-- written in the consumer's own transaction; the primary key makes a second delivery a no-op.
CREATE TABLE inbox_event (
    source      varchar(200)             NOT NULL,
    event_id    varchar(200)             NOT NULL,
    received_at timestamp with time zone NOT NULL,
    CONSTRAINT pk_inbox_event PRIMARY KEY (source, event_id)
);
