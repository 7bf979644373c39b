/**
 * The store SPI: where keys are claimed, completed and released, and its JDBC implementations.
 *
 * <p>The claim is one atomic write decided by the database's unique key on (tenant, operation,
 * key), never a check followed by an insert in Java: a stored procedure under {@code UPDLOCK,
 * HOLDLOCK} on SQL Server, a function around {@code INSERT ... ON CONFLICT DO NOTHING} on
 * PostgreSQL, and an insert whose duplicate-key error decides the race on H2. The schemas live in
 * the repository's {@code sql/} folder, one Flyway migration set per database.
 */
package com.banhang.idempotency.persistence;
