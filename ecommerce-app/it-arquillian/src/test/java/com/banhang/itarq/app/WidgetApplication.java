package com.banhang.itarq.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The test application's Jakarta REST root. No classes listed: the widget resource and the
 * idempotency library's providers (in WEB-INF/lib) are found by scanning, as in any application.
 */
@ApplicationPath("api")
public class WidgetApplication extends Application {}
