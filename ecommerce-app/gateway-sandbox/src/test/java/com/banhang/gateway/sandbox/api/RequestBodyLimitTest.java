package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The 64 KiB bound on request bodies, on the filter itself (no server). */
class RequestBodyLimitTest {

  /** A request with this body and Content-Length header; records what the filter does to it. */
  private static final class FakeRequest {
    final AtomicReference<Response> aborted = new AtomicReference<>();
    final AtomicReference<InputStream> stream = new AtomicReference<>();
    final ContainerRequestContext context;

    FakeRequest(byte[] body, String contentLength) {
      stream.set(new ByteArrayInputStream(body));
      context =
          (ContainerRequestContext)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {ContainerRequestContext.class},
                  (proxy, method, args) ->
                      switch (method.getName()) {
                        case "getHeaderString" -> contentLength;
                        case "hasEntity" -> body.length > 0;
                        case "getEntityStream" -> stream.get();
                        case "setEntityStream" -> {
                          stream.set((InputStream) args[0]);
                          yield null;
                        }
                        case "abortWith" -> {
                          aborted.set((Response) args[0]);
                          yield null;
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                      });
    }
  }

  private static void assertRefused(FakeRequest request) {
    assertThat(request.aborted.get()).isNotNull();
    assertThat(request.aborted.get().getStatus()).isEqualTo(413);
    assertThat(request.aborted.get().getEntity())
        .isInstanceOfSatisfying(
            ApiError.class, error -> assertThat(error.error()).isEqualTo("request_too_large"));
  }

  @Test
  void aBodyAtTheLimitIsHandedOnWhole() throws IOException {
    byte[] body = new byte[RequestBodyLimit.MAX_BODY_BYTES];
    body[body.length - 1] = 'x';
    FakeRequest request = new FakeRequest(body, null);

    new RequestBodyLimit().filter(request.context);

    assertThat(request.aborted.get()).isNull();
    assertThat(request.stream.get().readAllBytes()).isEqualTo(body);
  }

  @Test
  void aChunkedBodyOneByteOverTheLimitIsRefused() throws IOException {
    FakeRequest request = new FakeRequest(new byte[RequestBodyLimit.MAX_BODY_BYTES + 1], null);

    new RequestBodyLimit().filter(request.context);

    assertRefused(request);
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedWithoutReading() throws IOException {
    FakeRequest request = new FakeRequest("{}".getBytes(), "10000000");

    new RequestBodyLimit().filter(request.context);

    assertRefused(request);
    assertThat(request.stream.get().available()).isEqualTo(2);
  }

  @Test
  void readingStopsOneBytePastTheLimit() throws IOException {
    ByteArrayInputStream endless = new ByteArrayInputStream(new byte[1_000_000]);

    assertThat(RequestBodyLimit.readAtMost(endless, 100)).isNull();
    assertThat(endless.available()).isEqualTo(1_000_000 - 101);
    assertThat(RequestBodyLimit.readAtMost(new ByteArrayInputStream(new byte[100]), 100))
        .hasSize(100);
  }
}
