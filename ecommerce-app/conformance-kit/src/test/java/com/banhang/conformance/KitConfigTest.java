package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KitConfigTest {

  private static final List<String> REQUIRED =
      List.of(
          "--base-url",
          "http://localhost:9080",
          "--endpoint",
          "/api/v1/orders",
          "--body-template",
          "{\"sku\":\"{{unique}}\"}",
          "--tenant-a",
          "alice:alice-secret");

  @Test
  void commandLine_requiredSettings_andDefaults() throws Exception {
    KitConfig config = KitConfig.fromArgs(REQUIRED);

    assertThat(config.baseUrl()).hasToString("http://localhost:9080");
    assertThat(config.endpoint()).isEqualTo("/api/v1/orders");
    assertThat(config.tenantA()).isEqualTo(new Tenant("alice", "alice-secret"));
    assertThat(config.tenantB()).isEmpty();
    assertThat(config.setupEndpoint()).isEmpty();
    assertThat(config.method()).isEqualTo("POST");
    assertThat(config.concurrency()).isEqualTo(10);
    assertThat(config.maxKeyLength()).isEqualTo(255);
    assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.expectProblemSlugs()).isFalse();
  }

  @Test
  void commandLine_nameEqualsValue_isAcceptedToo() throws Exception {
    List<String> args = new java.util.ArrayList<>(REQUIRED);
    args.add("--tenant-b=bob:pass:with:colons");
    args.add("--method=patch");

    KitConfig config = KitConfig.fromArgs(args);

    assertThat(config.tenantB()).contains(new Tenant("bob", "pass:with:colons"));
    assertThat(config.method()).isEqualTo("PATCH");
  }

  @Test
  void propertiesFile_givesSettings_andTheCommandLineWins(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("kit.properties");
    Files.writeString(
        file,
        String.join(
            "\n",
            "base-url=http://shop.test:9080",
            "endpoint=/api/v1/orders",
            "body-template={\"sku\":\"{{unique}}\"}",
            "tenant-a=alice:alice-secret",
            "tenant-b=bob:bob-secret",
            "concurrency=4"),
        StandardCharsets.UTF_8);

    KitConfig config =
        KitConfig.fromArgs(List.of("--config", file.toString(), "--concurrency", "7"));

    assertThat(config.baseUrl()).hasToString("http://shop.test:9080");
    assertThat(config.tenantB()).contains(new Tenant("bob", "bob-secret"));
    assertThat(config.concurrency()).isEqualTo(7);
  }

  @Test
  void systemProperties_areTheSuiteFormsSettings() throws Exception {
    Map<String, String> previous = new java.util.HashMap<>();
    Map<String, String> settings =
        Map.of(
            "kit.base-url", "http://127.0.0.1:1",
            "kit.endpoint", "/orders",
            "kit.body-template", "{}",
            "kit.tenant-a", "a:b",
            "kit.expect-problem-slugs", "true");
    settings.keySet().forEach(k -> previous.put(k, System.getProperty(k)));
    try {
      settings.forEach(System::setProperty);

      assertThat(KitConfig.configuredBySystemProperties()).isTrue();
      KitConfig config = KitConfig.fromSystemProperties();
      assertThat(config.endpoint()).isEqualTo("/orders");
      assertThat(config.expectProblemSlugs()).isTrue();
    } finally {
      previous.forEach(
          (k, v) -> {
            if (v == null) {
              System.clearProperty(k);
            } else {
              System.setProperty(k, v);
            }
          });
    }
  }

  @Test
  void aMissingSetting_isNamed() {
    assertThatThrownBy(() -> KitConfig.fromArgs(REQUIRED.subList(0, 6)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant-a");
  }

  @Test
  void anUnknownSetting_isRefused() {
    List<String> args = new java.util.ArrayList<>(REQUIRED);
    args.add("--concurency");
    args.add("3");

    assertThatThrownBy(() -> KitConfig.fromArgs(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown setting: concurency");
  }

  @Test
  void anIdPlaceholder_needsASetupEndpoint() {
    List<String> args = new java.util.ArrayList<>(REQUIRED);
    args.set(3, "/api/v1/orders/{{id}}/payments");

    assertThatThrownBy(() -> KitConfig.fromArgs(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("setup-endpoint");
  }

  @Test
  void aTenantWithoutPassword_isRefused_andAPasswordIsNeverPrinted() {
    assertThatThrownBy(() -> Tenant.parse("alice")).isInstanceOf(IllegalArgumentException.class);
    assertThat(Tenant.parse("alice:s3cret").toString()).isEqualTo("alice").doesNotContain("s3cret");
    assertThat(Tenant.parse("alice:s3cret").authorization()).isEqualTo("Basic YWxpY2U6czNjcmV0");
  }
}
