package com.banhang.shop.admin.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.shop.admin.application.AuditLog;
import com.banhang.shop.admin.security.LoginThrottle.Channel;
import java.time.Duration;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.Test;

/**
 * The throttle's arithmetic with real Bucket4j buckets; the HTTP suite (LoginThrottleIT) shows it
 * through the API on a running server. The per-address limit is tested here because every test
 * request to a server comes from the same address.
 */
class LoginThrottleTest {

  private final MetricRegistry metrics = mock(MetricRegistry.class);
  private final Counter counter = mock(Counter.class);
  private final AuditLog audit = mock(AuditLog.class);
  private final LoginThrottle throttle = new LoginThrottle();

  LoginThrottleTest() {
    when(metrics.counter(any(Metadata.class), any(Tag[].class))).thenReturn(counter);
    throttle.metrics = metrics;
    throttle.audit = audit;
    throttle.maxFailuresPerUser = 3;
    throttle.maxFailuresPerAddress = 5;
    throttle.window = Duration.ofMinutes(5);
  }

  @Test
  void aUserIsRefusedAfterItsFailuresUntilATokenIsBack() {
    for (int i = 0; i < 3; i++) {
      assertThat(throttle.refusal("dave", "192.0.2.1", Channel.API)).isEmpty();
      throttle.failed("dave", "192.0.2.1", Channel.API);
    }

    assertThat(throttle.refusal("dave", "192.0.2.9", Channel.CONSOLE))
        .as("the same user from another address, through the console")
        .hasValueSatisfying(
            wait -> assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(100)));
    assertThat(throttle.refusal("erin", "192.0.2.1", Channel.API)).isEmpty();
    verify(audit, times(3)).append(eq("dave"), eq("login-failed"), isNull(), any(), any());
    verify(audit).append(eq("dave"), eq("login-throttled"), isNull(), any(), any());
  }

  @Test
  void anAddressIsRefusedAfterFailuresOfManyUsers() {
    for (int i = 0; i < 5; i++) {
      throttle.failed("user-" + i, "198.51.100.7", Channel.API);
    }

    assertThat(throttle.refusal("somebody-else", "198.51.100.7", Channel.API)).isPresent();
    assertThat(throttle.refusal("somebody-else", "198.51.100.8", Channel.API)).isEmpty();
  }

  @Test
  void aLoginIsAnsweredWhenTheAuditCannotBeWritten() {
    doThrow(new IllegalStateException("database down"))
        .when(audit)
        .append(any(), any(), any(), any(), any());

    throttle.failed("dave", "192.0.2.1", Channel.CONSOLE);

    verify(counter).inc();
  }

  @Test
  void aHugeUserNameIsCutForItsBucket() {
    String huge = "x".repeat(10_000);
    for (int i = 0; i < 3; i++) {
      throttle.failed(huge + i, "192.0.2.2", Channel.API);
    }

    assertThat(throttle.refusal(huge + "other", "192.0.2.3", Channel.API))
        .as("names equal in their first " + LoginThrottle.MAX_USER_NAME + " characters")
        .isPresent();
  }
}
