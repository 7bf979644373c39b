-- Operator console: the Overview's charts (docs/operations.md, "Overview"). One row per minute,
-- signal and series, written by every node once a minute: counters (unknown outcomes, gateway
-- errors, reconciliation findings) are added into the row by each node that saw some (INSERT ... ON
-- CONFLICT DO UPDATE); gauges (stuck rows, the oldest processing row's age) keep the largest value
-- any node sampled. The same job deletes rows older than 48 hours, a small batch at a time. The
-- primary key leads with the minute, so the charts' range reads and the cleanup's deletes are index
-- ranges.
CREATE TABLE console_minute (
    minute_at   timestamptz  NOT NULL,
    signal_name varchar(32)  NOT NULL,
    series      varchar(100) NOT NULL,
    reading     bigint       NOT NULL,
    CONSTRAINT pk_console_minute PRIMARY KEY (minute_at, signal_name, series)
);
