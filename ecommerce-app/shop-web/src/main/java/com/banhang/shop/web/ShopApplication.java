package com.banhang.shop.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** The shop's REST API under /api; resources come from the orders and payments contexts. */
@ApplicationPath("/api")
@OpenAPIDefinition(
    info =
        @Info(
            title = "BanHang shop",
            version = "1",
            description =
                "Orders and payments that never charge a customer twice: every POST takes an"
                    + " Idempotency-Key (docs/idempotency.md)."))
public class ShopApplication extends Application {}
