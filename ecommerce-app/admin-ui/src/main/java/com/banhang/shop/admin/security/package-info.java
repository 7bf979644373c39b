/**
 * What every login to the shop shares, the API's Basic authentication (shop-web) and the console's
 * form: the throttle of failed logins per user name and per client address, its metrics and its
 * audit entries (docs/configuration.md, "Failed logins").
 */
package com.banhang.shop.admin.security;
