package com.banhang.gateway.sandbox.webhook;

import static com.banhang.gateway.sandbox.webhook.StandardWebhookSignerTest.SECRET_OLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChargeWebhookSettingsTest {

  private static ChargeWebhookSettings withUrl(String url, List<String> secrets) {
    return new ChargeWebhookSettings(
        ChargeWebhookSettings.parseUrl(url),
        secrets,
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        Duration.ofMinutes(10),
        15);
  }

  private static ChargeWebhookSettings withTimes(
      Duration timeout, Duration poll, Duration initial, Duration max, int attempts) {
    return new ChargeWebhookSettings(
        Optional.of(URI.create("http://localhost:9080/hooks")),
        List.of(SECRET_OLD),
        timeout,
        poll,
        initial,
        max,
        attempts);
  }

  @Test
  void offWithoutAUrlAndThenNoSecretIsNeeded() {
    assertThat(ChargeWebhookSettings.OFF.enabled()).isFalse();
    assertThat(withUrl("  ", List.of()).enabled()).isFalse();
    assertThat(withUrl(null, List.of()).enabled()).isFalse();
  }

  @Test
  void onWithAUrlAndASecret() {
    ChargeWebhookSettings settings =
        withUrl("https://shop.example/webhooks/gateway", List.of(SECRET_OLD));

    assertThat(settings.enabled()).isTrue();
    assertThat(settings.url()).contains(URI.create("https://shop.example/webhooks/gateway"));
  }

  @Test
  void aUrlNeedsAValidSecret() {
    assertThatThrownBy(() -> withUrl("http://localhost:9080/hooks", List.of()))
        .isInstanceOf(InvalidWebhookSettingsException.class)
        .hasMessageContaining("sandbox.webhooks.secrets");
    assertThatThrownBy(() -> withUrl("http://localhost:9080/hooks", List.of("whsec_short")))
        .isInstanceOf(InvalidWebhookSettingsException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://localhost/hooks", "localhost:9080/hooks", "/hooks", "http:// bad"})
  void refusesAUrlThatIsNotAbsoluteHttp(String url) {
    assertThatThrownBy(() -> withUrl(url, List.of(SECRET_OLD)))
        .isInstanceOf(InvalidWebhookSettingsException.class)
        .hasMessageStartingWith("sandbox.webhooks.url:");
  }

  @Test
  void refusesTimesOutOfRange() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> withTimes(Duration.ZERO, second, second, second, 1))
        .hasMessageStartingWith("sandbox.webhooks.timeout:");
    assertThatThrownBy(() -> withTimes(Duration.ofMinutes(2), second, second, second, 1))
        .hasMessageStartingWith("sandbox.webhooks.timeout:");
    assertThatThrownBy(() -> withTimes(second, Duration.ofMillis(-1), second, second, 1))
        .hasMessageStartingWith("sandbox.webhooks.poll-interval:");
    assertThatThrownBy(() -> withTimes(second, second, Duration.ofSeconds(2), second, 1))
        .hasMessageStartingWith("sandbox.webhooks.retry-initial:");
    assertThatThrownBy(() -> withTimes(second, second, second, Duration.ofDays(4), 1))
        .hasMessageStartingWith("sandbox.webhooks.retry-max:");
    assertThatThrownBy(() -> withTimes(second, second, second, second, 0))
        .hasMessageStartingWith("sandbox.webhooks.max-attempts:");
    assertThatThrownBy(() -> withTimes(second, second, second, second, 101))
        .hasMessageStartingWith("sandbox.webhooks.max-attempts:");
  }

  @Test
  void millisecondsAreAllowedSoTestsRunFast() {
    Duration ms = Duration.ofMillis(50);

    assertThat(withTimes(ms, ms, ms, ms, 1).pollInterval()).isEqualTo(ms);
  }

  @Test
  void theBackoffDoublesUpToItsCap() {
    ChargeWebhookSettings settings =
        withTimes(
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            15);

    assertThat(settings.backoff(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.backoff(2)).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.backoff(3)).isEqualTo(Duration.ofSeconds(20));
    assertThat(settings.backoff(4)).isEqualTo(Duration.ofSeconds(30));
    assertThat(settings.backoff(14)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void splitsSecretsOnCommasAndNeverShowsThem() {
    assertThat(ChargeWebhookSettings.splitSecrets(" a, ,b ,")).containsExactly("a", "b");
    assertThat(ChargeWebhookSettings.splitSecrets(null)).isEmpty();
    assertThat(withUrl("http://localhost/hooks", List.of(SECRET_OLD)).toString())
        .contains("secrets=1")
        .doesNotContain(SECRET_OLD);
  }
}
