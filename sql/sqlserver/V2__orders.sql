-- Orders context. merchant_order_id is the long-lived business identifier: unique per tenant,
-- outliving every idempotency key (CONTRACT s8). A filtered unique index, because a SQL Server
-- unique constraint would allow only one NULL merchant id.
CREATE TABLE dbo.shop_order (
    id                varchar(36)       NOT NULL,
    tenant_id         nvarchar(100)     COLLATE Latin1_General_100_BIN2 NOT NULL,
    merchant_order_id varchar(64)       COLLATE Latin1_General_100_BIN2 NULL,
    currency          char(3)           NOT NULL,
    status            varchar(32)       NOT NULL,
    total_amount      bigint            NOT NULL,
    created_at        datetimeoffset(3) NOT NULL,
    version           int               NOT NULL,
    CONSTRAINT pk_shop_order PRIMARY KEY (id),
    CONSTRAINT ck_shop_order_total CHECK (total_amount >= 0)
);
GO
CREATE UNIQUE INDEX uq_shop_order_merchant ON dbo.shop_order (tenant_id, merchant_order_id)
    WHERE merchant_order_id IS NOT NULL;
CREATE INDEX ix_shop_order_tenant ON dbo.shop_order (tenant_id, created_at);
GO

CREATE TABLE dbo.order_line (
    order_id   varchar(36) NOT NULL,
    line_no    int         NOT NULL,
    sku        varchar(64) NOT NULL,
    quantity   int         NOT NULL,
    unit_price bigint      NOT NULL,
    CONSTRAINT pk_order_line PRIMARY KEY (order_id, line_no),
    CONSTRAINT fk_order_line_order FOREIGN KEY (order_id) REFERENCES dbo.shop_order (id),
    CONSTRAINT ck_order_line_quantity CHECK (quantity BETWEEN 1 AND 1000),
    CONSTRAINT ck_order_line_price CHECK (unit_price >= 0)
);
CREATE INDEX ix_order_line_sku ON dbo.order_line (sku);
GO
