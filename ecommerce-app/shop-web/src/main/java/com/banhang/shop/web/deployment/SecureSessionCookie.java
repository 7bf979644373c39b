package com.banhang.shop.web.deployment;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Marks the console's session cookie {@code Secure} while {@code shop.http.require-tls} is true
 * (production): a browser then never sends it over plain HTTP. The development profile serves the
 * console over http://localhost, where a Secure cookie would not come back from every client, so
 * web.xml cannot say it once for both.
 */
@WebListener
public class SecureSessionCookie implements ServletContextListener {

  @Override
  public void contextInitialized(ServletContextEvent event) {
    Config config = ConfigProvider.getConfig(SecureSessionCookie.class.getClassLoader());
    boolean requireTls =
        config.getOptionalValue("shop.http.require-tls", Boolean.class).orElse(true);
    event.getServletContext().getSessionCookieConfig().setSecure(requireTls);
  }
}
