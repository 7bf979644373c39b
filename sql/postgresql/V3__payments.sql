-- Payments context. One row per payment attempt, committed before the gateway is called.
-- active_order_id is the order while the attempt holds it (PENDING or CAPTURED), NULL otherwise:
-- its unique index lets only one attempt at a time hold an order, so two keys never charge one
-- order twice.
CREATE TABLE payment (
    id                  varchar(36)  NOT NULL,
    tenant_id           varchar(100) NOT NULL,
    order_id            varchar(36)  NOT NULL,
    active_order_id     varchar(36)  NULL,
    amount              bigint       NOT NULL,
    currency            char(3)      NOT NULL,
    payment_method      varchar(100) NOT NULL,
    status              varchar(16)  NOT NULL,
    gateway_key         varchar(100) NOT NULL,
    gateway_charge_id   varchar(100) NULL,
    idempotency_key     varchar(255) NOT NULL,
    idempotency_attempt integer      NOT NULL,
    created_at          timestamptz  NOT NULL,
    updated_at          timestamptz  NOT NULL,
    version             integer      NOT NULL,
    CONSTRAINT pk_payment PRIMARY KEY (id),
    CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES shop_order (id),
    CONSTRAINT uq_payment_active_order UNIQUE (active_order_id),
    CONSTRAINT ck_payment_status CHECK (status IN ('PENDING', 'CAPTURED', 'DECLINED', 'ABANDONED')),
    CONSTRAINT ck_payment_amount CHECK (amount > 0)
);
CREATE INDEX ix_payment_claim ON payment (tenant_id, idempotency_key, idempotency_attempt);
CREATE INDEX ix_payment_order ON payment (order_id);
