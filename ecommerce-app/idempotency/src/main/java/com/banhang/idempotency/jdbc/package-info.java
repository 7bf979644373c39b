/**
 * The store SPI over JDBC, one class per database: a stored procedure under {@code UPDLOCK,
 * HOLDLOCK} after a lock on the key on SQL Server (the production target), functions that take an
 * advisory transaction lock on the key before they read and write on PostgreSQL, and an insert
 * whose duplicate-key error decides the race on H2. Each store's administration ({@link
 * com.banhang.idempotency.jdbc.JdbcIdempotencyStoreAdministration}) is one class for every
 * database, written over the hooks of the store it belongs to. The schemas live in the repository's
 * {@code sql/} folder, one Flyway migration set per database. Response bodies may be encrypted at
 * rest ({@link com.banhang.idempotency.jdbc.ResponseBodyCipher}). Depends on the public API and the
 * SPI, never on the library's internals.
 */
package com.banhang.idempotency.jdbc;
