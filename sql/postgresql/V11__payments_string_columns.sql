-- The indexes SQL Server's V11 adds (docs/sqlserver.md, "Payments columns, the audit trigger and
-- the LIKE escape"); the column types need no change here: PostgreSQL compares a text parameter
-- with a varchar column without converting the column, and exactly.
-- The captured attempt of a gateway key (findCapturedByGatewayKey, read while the attempt's row is
-- locked FOR UPDATE, and the sweep's NOT EXISTS) is found by a seek, not by reading every payment.
CREATE INDEX ix_payment_gateway_key ON payment (gateway_key, status);
-- The console's flagged late charges and their counts (late_charge IN (...)).
CREATE INDEX ix_payment_late_charge ON payment (late_charge, late_checked_at);
