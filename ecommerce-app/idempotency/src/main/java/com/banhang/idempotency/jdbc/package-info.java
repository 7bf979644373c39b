/**
 * The store SPI over JDBC, one class per database: a stored procedure under {@code UPDLOCK,
 * HOLDLOCK} after a lock on the key on SQL Server (the production target), functions around {@code
 * INSERT ... ON CONFLICT DO NOTHING} and an advisory transaction lock on PostgreSQL, and an insert
 * whose duplicate-key error decides the race on H2. The schemas live in the repository's {@code
 * sql/} folder, one Flyway migration set per database. Response bodies may be encrypted at rest
 * ({@link com.banhang.idempotency.jdbc.ResponseBodyCipher}).
 */
package com.banhang.idempotency.jdbc;
