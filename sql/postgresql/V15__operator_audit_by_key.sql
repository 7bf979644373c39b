-- Operator console: a payment's timeline reads the audit entries of its key, oldest first
-- (docs/operations.md, "The payment page"): a seek on the key, never a scan of the whole audit.
CREATE INDEX ix_operator_audit_key ON operator_audit (idempotency_key, tenant_id, operation, occurred_at);
