-- How a retention run removed its rows (docs/scaling.md, "Retention by partition"): in batches, or
-- by dropping whole expired partitions of the key table. H2 keeps the batched purge only.
ALTER TABLE idempotency_purge_run ADD COLUMN method varchar(16);
ALTER TABLE idempotency_purge_run ADD COLUMN partitions_dropped integer;
