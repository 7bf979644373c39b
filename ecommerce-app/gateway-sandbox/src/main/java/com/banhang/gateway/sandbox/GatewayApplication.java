package com.banhang.gateway.sandbox;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The gateway sandbox's REST API under {@code /v1} (below the context root {@code /gateway}). */
@ApplicationPath("/v1")
public class GatewayApplication extends Application {}
