/**
 * Failed logins to the API (docs/configuration.md, "Failed logins"): the container checks HTTP
 * Basic against the server's user registry; around it, the error page counts a failed login in the
 * shop's {@code LoginThrottle} and {@link com.banhang.shop.web.security.LoginThrottleFilter}
 * refuses the logins of a throttled user or address, the right password too.
 */
package com.banhang.shop.web.security;
