-- The same order created under a new key, with the statements the shop sends for it on PostgreSQL:
-- the request filter's read of the key (outside the transaction), the claim inside the transaction
-- (advisory lock and read, idempotency_claim_in_transaction), the order, and the key's row written
-- once, already completed, with a sealed answer of the size the shop stores (about 330 bytes).
\set n random(1, 2000000000)
\set m random(1, 2000000000)
SELECT tenant_id, operation, idempotency_key, request_hash, status, outcome, attempt, locked_until, created_at,
       completed_at, expires_at, response_code, response_headers, response_body
  FROM idempotency_record WHERE tenant_id = 'alice' AND operation = 'orders.create' AND idempotency_key = 'k-' || :n || '-' || :m;
BEGIN;
SELECT won FROM idempotency_claim_in_transaction('alice', 'orders.create', 'k-' || :n || '-' || :m,
  'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9', 30000, 86400, false, 5000);
INSERT INTO shop_order (id, created_at, currency, merchant_order_id, status, tenant_id, total_amount, version)
  VALUES ('o-' || :n || '-' || :m, statement_timestamp(), 'VND', NULL, 'CREATED', 'alice', 1000, 1);
INSERT INTO order_line (order_id, line_no, quantity, sku, unit_price) VALUES ('o-' || :n || '-' || :m, 1, 1, 'S-1', 1000);
INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash, status, attempt, locked_until,
    created_at, completed_at, expires_at, resource_ref, response_code, response_headers, response_body)
  VALUES ('alice', 'orders.create', 'k-' || :n || '-' || :m, 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
    'COMPLETED', 1, statement_timestamp(), statement_timestamp(), statement_timestamp(), statement_timestamp() + interval '1 day',
    NULL, 201, 'Location: v1/orders/o-' || :n || '-' || :m || chr(10) || 'Content-Type: application/json',
    convert_to(repeat('x', 330), 'UTF8'));
COMMIT;
