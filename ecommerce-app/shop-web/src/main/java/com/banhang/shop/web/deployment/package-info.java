/**
 * Checks that keep an unsafe deployment from serving: the start-up check of required settings (a
 * CDI extension) and the filter that refuses requests that did not arrive over TLS
 * (docs/deployment.md, docs/security.md). May depend on the contexts' configuration constants and
 * the idempotency library's public API.
 */
package com.banhang.shop.web.deployment;
