package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The raw socket's response reader: the framings a server may use. */
class WireTest {

  @Test
  void contentLength_bodyIsCutToIt_headersAreCaseInsensitive() throws Exception {
    Answer answer =
        Wire.parse(
            bytes(
                "HTTP/1.1 400 Bad Request\r\nCONTENT-TYPE: application/problem+json\r\n"
                    + "Content-Length: 2\r\n\r\n{}trailing"));

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.mediaType()).isEqualTo("application/problem+json");
    assertThat(answer.text()).isEqualTo("{}");
  }

  @Test
  void chunked_bodyIsJoined() throws Exception {
    Answer answer =
        Wire.parse(
            bytes(
                "HTTP/1.1 413 Payload Too Large\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\n{\"a\r\n4;ext=1\r\n\":1}\r\n0\r\n\r\n"));

    assertThat(answer.status()).isEqualTo(413);
    assertThat(answer.text()).isEqualTo("{\"a\":1}");
  }

  @Test
  void untilClose_bodyIsTheRest() throws Exception {
    Answer answer = Wire.parse(bytes("HTTP/1.0 200 OK\r\nX-A: 1\r\nX-A: 2\r\n\r\nhello"));

    assertThat(answer.text()).isEqualTo("hello");
    assertThat(answer.headers().get("x-a")).containsExactly("1", "2");
  }

  @Test
  void notHttp_orCutShort_isAnError() {
    assertThatThrownBy(() -> Wire.parse(bytes("SSH-2.0-OpenSSH\r\n\r\n")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not an HTTP response");
    assertThatThrownBy(() -> Wire.parse(bytes("HTTP/1.1 200 OK\r\nContent-")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no complete response head");
  }

  @Test
  void sendBytes_writesTheRequestAsGiven_andReadsTheAnswer() throws Exception {
    byte[] request =
        bytes("POST /x HTTP/1.1\r\nHost: h\r\nX-Odd: \u0001\r\nContent-Length: 0\r\n\r\n");
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<byte[]> received =
          CompletableFuture.supplyAsync(
              () -> {
                try (Socket socket = server.accept()) {
                  byte[] got = socket.getInputStream().readNBytes(request.length);
                  socket
                      .getOutputStream()
                      .write(bytes("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\nno"));
                  return got;
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      Wire wire =
          new Wire(URI.create("http://127.0.0.1:" + server.getLocalPort()), Duration.ofSeconds(10));

      Answer answer = wire.sendBytes(request);

      assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(request);
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.text()).isEqualTo("no");
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }
}
