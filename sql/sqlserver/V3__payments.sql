-- Payments context. One row per payment attempt, committed before the gateway is called.
-- active_order_id is the order while the attempt holds it (PENDING or CAPTURED), NULL otherwise:
-- a filtered unique index lets only one attempt at a time hold an order (a plain unique
-- constraint would also allow only one NULL on SQL Server).
CREATE TABLE dbo.payment (
    id                  varchar(36)       NOT NULL,
    tenant_id           nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    order_id            varchar(36)       NOT NULL,
    active_order_id     varchar(36)       NULL,
    amount              bigint            NOT NULL,
    currency            char(3)           NOT NULL,
    payment_method      varchar(100)      NOT NULL,
    status              varchar(16)       NOT NULL,
    gateway_key         varchar(100)      NOT NULL,
    gateway_charge_id   varchar(100)      NULL,
    idempotency_key     varchar(255)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    idempotency_attempt int               NOT NULL,
    created_at          datetimeoffset(3) NOT NULL,
    updated_at          datetimeoffset(3) NOT NULL,
    version             int               NOT NULL,
    CONSTRAINT pk_payment PRIMARY KEY (id),
    CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES dbo.shop_order (id),
    CONSTRAINT ck_payment_status CHECK (status IN ('PENDING', 'CAPTURED', 'DECLINED', 'ABANDONED')),
    CONSTRAINT ck_payment_amount CHECK (amount > 0)
);
GO
CREATE UNIQUE INDEX uq_payment_active_order ON dbo.payment (active_order_id)
    WHERE active_order_id IS NOT NULL;
CREATE INDEX ix_payment_claim ON dbo.payment (tenant_id, idempotency_key, idempotency_attempt);
CREATE INDEX ix_payment_order ON dbo.payment (order_id);
GO
