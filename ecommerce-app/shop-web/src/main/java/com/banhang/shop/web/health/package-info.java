/**
 * MicroProfile Health checks: liveness (the JVM) and readiness (the database, its migrations, the
 * payment gateway, every idempotent operation enforced), each probe bounded in time
 * (docs/operations.md). May depend on the WAR's own classes and the idempotency library's public
 * API.
 */
package com.banhang.shop.web.health;
