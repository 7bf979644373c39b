-- An order created without a key, as the shop's JPA flush writes it: the order and its line.
\set n random(1, 2000000000)
\set m random(1, 2000000000)
BEGIN;
INSERT INTO shop_order (id, created_at, currency, merchant_order_id, status, tenant_id, total_amount, version)
  VALUES ('o-' || :n || '-' || :m, statement_timestamp(), 'VND', NULL, 'CREATED', 'alice', 1000, 1);
INSERT INTO order_line (order_id, line_no, quantity, sku, unit_price) VALUES ('o-' || :n || '-' || :m, 1, 1, 'S-1', 1000);
COMMIT;
