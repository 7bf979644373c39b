/**
 * The one place where exceptions and container errors become problem documents (docs/problems.md):
 * nothing reaches a client as a stack trace or an HTML page. May depend on the contexts' domain and
 * application exceptions it maps, and the library's {@code ProblemDetails}.
 */
package com.banhang.shop.web.problems;
