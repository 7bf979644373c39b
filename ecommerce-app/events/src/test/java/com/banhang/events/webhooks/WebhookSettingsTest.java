package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reading the subscribers from configuration: usable endpoints kept, unusable ones left out with a
 * warning that names the property and never a secret, refused targets kept with a warning.
 */
class WebhookSettingsTest {

  private final Map<String, String> config = new HashMap<>();
  private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
  private final Logger log = Logger.getLogger(WebhookSettings.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  /** Every host is a public address: these tests are about the configuration, not the guard. */
  private final WebhookTargets.Resolver publicDns =
      host -> new InetAddress[] {InetAddress.getByName("93.184.216.34")};

  @BeforeEach
  void captureWarnings() {
    log.addHandler(capture);
  }

  @AfterEach
  void stopCapturing() {
    log.removeHandler(capture);
  }

  private WebhookSettings read() {
    return WebhookSettings.read(name -> Optional.ofNullable(config.get(name)), publicDns);
  }

  @Test
  void endpointsWithTheirTenantsAndSecrets_andTheDefaults() {
    String old = Secrets.newSecret();
    String current = Secrets.newSecret();
    config.put("events.source", "urn:test");
    config.put("events.webhooks.endpoints", "crm, erp");
    config.put("events.webhooks.crm.url", "https://crm.example/hooks");
    config.put("events.webhooks.crm.tenants", "tenant-a, tenant-b");
    config.put("events.webhooks.crm.secrets", old + "," + current);
    config.put("events.webhooks.erp.url", "https://erp.example/in");
    config.put("events.webhooks.erp.tenants", "*");
    config.put("events.webhooks.erp.secrets", current);

    WebhookSettings settings = read();

    assertThat(settings.enabled()).isTrue();
    assertThat(settings.endpoints())
        .extracting(WebhookEndpoint::name)
        .containsExactly("crm", "erp");
    WebhookEndpoint crm = settings.byName().get("crm");
    assertThat(crm.tenants()).isEqualTo(Set.of("tenant-a", "tenant-b"));
    assertThat(crm.signer().secrets()).isEqualTo(2);
    assertThat(crm.url()).hasHost("crm.example");
    assertThat(settings.receiving("tenant-a"))
        .extracting(WebhookEndpoint::name)
        .containsExactly("crm", "erp");
    assertThat(settings.receiving("tenant-z"))
        .extracting(WebhookEndpoint::name)
        .containsExactly("erp");
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.schedule().attempts()).isEqualTo(8);
    assertThat(settings.batchSize()).isEqualTo(20);
    assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.policy()).isEqualTo(WebhookTargets.Policy.STRICT);
    assertThat(warnings).isEmpty();
    assertThat(crm.toString()).doesNotContain("crm.example");
  }

  @Test
  void unusableEndpointsAreLeftOut_eachWithAWarningThatNeverShowsASecret() {
    String secret = Secrets.newSecret();
    config.put("events.source", "urn:test");
    config.put(
        "events.webhooks.endpoints",
        "nourl, badurl, notenants, nosecrets, badsecret, bad.name, ok");
    config.put("events.webhooks.badurl.url", "https://exa mple/");
    for (String name : List.of("notenants", "nosecrets", "badsecret", "ok")) {
      config.put("events.webhooks." + name + ".url", "https://" + name + ".example/hooks");
    }
    for (String name : List.of("nourl", "badurl", "nosecrets", "badsecret", "ok")) {
      config.put("events.webhooks." + name + ".tenants", "*");
      config.put("events.webhooks." + name + ".secrets", secret);
    }
    config.remove("events.webhooks.nosecrets.secrets");
    config.put("events.webhooks.badsecret.secrets", "hunter2hunter2hunter2hunter2");

    WebhookSettings settings = read();

    assertThat(settings.endpoints()).extracting(WebhookEndpoint::name).containsExactly("ok");
    assertThat(warnings)
        .anySatisfy(w -> assertThat(w).contains("'nourl'", "events.webhooks.nourl.url is not set"))
        .anySatisfy(w -> assertThat(w).contains("'badurl'", "not a URL"))
        .anySatisfy(w -> assertThat(w).contains("'notenants'", "tenants is not set"))
        .anySatisfy(w -> assertThat(w).contains("'nosecrets'", "no secret"))
        .anySatisfy(w -> assertThat(w).contains("'badsecret'", "does not start with whsec_"))
        .anySatisfy(w -> assertThat(w).contains("'bad.name'", "name"))
        .allSatisfy(
            w -> assertThat(w).doesNotContain("hunter2").doesNotContain(secret.substring(6)));
  }

  @Test
  void aRefusedTargetIsKept_withAWarning_soThatItsDeliveriesAreParkedWithTheReason() {
    config.put("events.source", "urn:test");
    config.put("events.webhooks.endpoints", "internal");
    config.put("events.webhooks.internal.url", "http://10.1.2.3/hooks");
    config.put("events.webhooks.internal.tenants", "*");
    config.put("events.webhooks.internal.secrets", Secrets.newSecret());

    WebhookSettings settings = read();

    assertThat(settings.endpoints()).extracting(WebhookEndpoint::name).containsExactly("internal");
    assertThat(warnings)
        .singleElement()
        .satisfies(w -> assertThat(w).contains("'internal'", "refused target", "not https"));
  }

  @Test
  void theDevelopmentSwitches_theScheduleAndTheTimeoutsAreRead_andTheirUseIsWarnedOf() {
    config.put("events.webhooks.allow-private-targets", "true");
    config.put("events.webhooks.allow-http", "true");
    config.put("events.webhooks.retry-schedule", "PT0S,PT0.01S");
    config.put("events.webhooks.connect-timeout", "PT1S");
    config.put("events.webhooks.timeout", "PT2S");
    config.put("events.webhooks.lease", "PT1S");
    config.put("events.webhooks.batch-size", "0");

    WebhookSettings settings = read();

    assertThat(settings.policy()).isEqualTo(new WebhookTargets.Policy(true, true));
    assertThat(settings.schedule().after(1)).hasValue(Duration.ofMillis(10));
    assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(2));
    // A lease shorter than a send is raised above it: otherwise a slow send is sent twice.
    assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(8));
    assertThat(settings.batchSize()).isEqualTo(20);
    assertThat(warnings)
        .anySatisfy(w -> assertThat(w).contains("Development and tests only"))
        .anySatisfy(w -> assertThat(w).contains("events.webhooks.lease"))
        .anySatisfy(w -> assertThat(w).contains("events.webhooks.batch-size"));
  }

  @Test
  void withoutEndpointsOrWithoutASource_webhooksAreNotEnabled() {
    assertThat(read().enabled()).isFalse();

    config.put("events.webhooks.endpoints", "crm");
    config.put("events.webhooks.crm.url", "https://crm.example/hooks");
    config.put("events.webhooks.crm.tenants", "*");
    config.put("events.webhooks.crm.secrets", Secrets.newSecret());
    assertThat(read().enabled()).isFalse();
    assertThat(warnings).anySatisfy(w -> assertThat(w).contains("events.source"));

    config.put("events.source", "urn:test");
    assertThat(read().enabled()).isTrue();
  }
}
