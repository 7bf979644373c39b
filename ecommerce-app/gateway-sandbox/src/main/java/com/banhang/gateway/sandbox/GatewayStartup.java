package com.banhang.gateway.sandbox;

import com.banhang.gateway.sandbox.charge.ChargeRepository;
import com.banhang.gateway.sandbox.fault.FaultControl;
import com.banhang.gateway.sandbox.fault.WebhookFaultControl;
import com.banhang.gateway.sandbox.webhook.WebhookService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Prepares the sandbox when the application starts: creates the charge and webhook tables if they
 * do not exist, reads the fault and webhook configuration and starts the webhook deliveries, so
 * that a missing datasource or an invalid setting stops the deployment at once instead of failing
 * the first charge.
 */
@ApplicationScoped
public class GatewayStartup {

  private static final Logger LOG = Logger.getLogger(GatewayStartup.class.getName());

  @Inject ChargeRepository repository;

  @Inject FaultControl faults;

  @Inject WebhookFaultControl webhookFaults;

  @Inject WebhookService webhooks;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
    repository.createSchemaIfAbsent();
    webhooks.start();
    LOG.info(
        () ->
            "Gateway sandbox ready; faults in force: "
                + faults.current()
                + "; webhook faults in force: "
                + webhookFaults.current());
  }
}
