-- The plans of a keyed create's statements, with what each read and wrote (EXPLAIN (ANALYZE,
-- BUFFERS)), on the tables the rounds filled. run.sh runs it last; psql prints the plans, and
-- auto_explain the ones inside the claim function. Everything is rolled back.
\set ON_ERROR_STOP on
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_analyze = on;
SET auto_explain.log_buffers = on;
SET auto_explain.log_nested_statements = on;
SELECT count(*) AS key_rows FROM idempotency_record;
SELECT idempotency_key AS stored_key FROM idempotency_record LIMIT 1 \gset
\echo '== the request filter''s read of a new key (outside the transaction)'
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
SELECT * FROM idempotency_record
 WHERE tenant_id = 'alice' AND operation = 'orders.create' AND idempotency_key = 'k-explain-1';
\echo '== the same read of a completed key (a replay)'
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
SELECT * FROM idempotency_record
 WHERE tenant_id = 'alice' AND operation = 'orders.create' AND idempotency_key = :'stored_key';
BEGIN;
\echo '== the claim inside the transaction (the statements inside it follow, from auto_explain)'
SET LOCAL client_min_messages = log;
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
SELECT won FROM idempotency_claim_in_transaction('alice', 'orders.create', 'k-explain-1',
  'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9', 30000, 86400, false, 5000);
SET LOCAL client_min_messages = notice;
\echo '== the order and its line'
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
INSERT INTO shop_order (id, created_at, currency, merchant_order_id, status, tenant_id, total_amount, version)
  VALUES ('o-explain-1', statement_timestamp(), 'VND', NULL, 'CREATED', 'alice', 1000, 1);
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
INSERT INTO order_line (order_id, line_no, quantity, sku, unit_price) VALUES ('o-explain-1', 1, 1, 'S-1', 1000);
\echo '== the key''s row, written once, completed'
EXPLAIN (ANALYZE, BUFFERS, COSTS off)
INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, request_hash, status, attempt, locked_until,
    created_at, completed_at, expires_at, resource_ref, response_code, response_headers, response_body)
  VALUES ('alice', 'orders.create', 'k-explain-1', 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
    'COMPLETED', 1, statement_timestamp(), statement_timestamp(), statement_timestamp(), statement_timestamp() + interval '1 day',
    NULL, 201, 'Location: v1/orders/o-explain-1' || chr(10) || 'Content-Type: application/json',
    convert_to(repeat('x', 330), 'UTF8'));
ROLLBACK;
