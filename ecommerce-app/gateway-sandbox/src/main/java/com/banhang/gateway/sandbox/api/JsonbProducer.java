package com.banhang.gateway.sandbox.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/**
 * One shared {@link Jsonb} for the bodies the sandbox writes by hand (a Jsonb is thread-safe and
 * costly to create).
 */
@ApplicationScoped
public class JsonbProducer {

  @Produces
  @ApplicationScoped
  Jsonb jsonb() {
    return JsonbBuilder.create();
  }

  void close(@Disposes Jsonb jsonb) throws Exception {
    jsonb.close();
  }
}
