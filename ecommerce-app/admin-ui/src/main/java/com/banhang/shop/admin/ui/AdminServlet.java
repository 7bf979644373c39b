package com.banhang.shop.admin.ui;

import com.vaadin.cdi.CdiVaadinServlet;
import jakarta.servlet.annotation.WebInitParam;
import jakarta.servlet.annotation.WebServlet;

/**
 * Serves the console at /admin beside the JAX-RS API. {@code closeIdleSessions}: Vaadin's heartbeat
 * would otherwise keep an unattended operator session alive past the 15-minute timeout of web.xml
 * for as long as a browser tab stays open.
 */
@WebServlet(
    name = "AdminConsole",
    urlPatterns = "/admin/*",
    asyncSupported = true,
    initParams = @WebInitParam(name = "closeIdleSessions", value = "true"))
public class AdminServlet extends CdiVaadinServlet {}
