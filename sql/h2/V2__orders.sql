-- Orders context. merchant_order_id is the long-lived business identifier: unique per tenant,
-- outliving every idempotency key (CONTRACT s8).
CREATE TABLE shop_order (
    id                VARCHAR(36)  NOT NULL,
    tenant_id         VARCHAR(100) NOT NULL,
    merchant_order_id VARCHAR(64)  NULL,
    currency          CHAR(3)      NOT NULL,
    status            VARCHAR(32)  NOT NULL,
    total_amount      BIGINT       NOT NULL,
    created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    version           INTEGER      NOT NULL,
    CONSTRAINT pk_shop_order PRIMARY KEY (id),
    CONSTRAINT uq_shop_order_merchant UNIQUE (tenant_id, merchant_order_id),
    CONSTRAINT ck_shop_order_total CHECK (total_amount >= 0)
);
CREATE INDEX ix_shop_order_tenant ON shop_order (tenant_id, created_at);

CREATE TABLE order_line (
    order_id   VARCHAR(36) NOT NULL,
    line_no    INTEGER     NOT NULL,
    sku        VARCHAR(64) NOT NULL,
    quantity   INTEGER     NOT NULL,
    unit_price BIGINT      NOT NULL,
    CONSTRAINT pk_order_line PRIMARY KEY (order_id, line_no),
    CONSTRAINT fk_order_line_order FOREIGN KEY (order_id) REFERENCES shop_order (id),
    CONSTRAINT ck_order_line_quantity CHECK (quantity BETWEEN 1 AND 1000),
    CONSTRAINT ck_order_line_price CHECK (unit_price >= 0)
);
CREATE INDEX ix_order_line_sku ON order_line (sku);
