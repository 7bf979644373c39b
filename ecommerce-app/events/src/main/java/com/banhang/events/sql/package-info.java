/**
 * The events library's internal SQL support, shared by the outbox's store ({@code jdbc}) and the
 * webhook deliveries' store ({@code webhooks}): what sets each database apart in their statements
 * ({@link com.banhang.events.sql.SqlDialect}) and the data source both stores run on ({@link
 * com.banhang.events.sql.EventsDataSource}). Public only so that both packages can use it; it is
 * not part of the library's API, and it knows neither store.
 */
package com.banhang.events.sql;
