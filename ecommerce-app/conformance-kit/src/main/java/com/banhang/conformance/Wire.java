package com.banhang.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sends one request and returns what came back. Two ways: {@link HttpClient} for everything an HTTP
 * client can send, and a raw HTTP/1.1 exchange over a {@link Socket} for what it refuses (a control
 * character in a header value) or what a server may answer before reading (a body over its limit).
 */
public final class Wire {

  private final URI base;
  private final Duration timeout;
  private final HttpClient http;

  public Wire(URI base, Duration timeout) {
    this.base = base;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            // HTTP/1.1 only: an h2c upgrade attempt is one more thing a server could get wrong,
            // and none of the rules is about it.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /** One request through {@link HttpClient}; a {@code null} key sends no Idempotency-Key. */
  public Answer send(
      String method, String path, Tenant tenant, String key, byte[] body, String contentType)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url(path)))
            .timeout(timeout)
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .header("Content-Type", contentType)
            .header("Authorization", tenant.authorization());
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    HttpResponse<byte[]> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.headers().map(), response.body());
  }

  /**
   * One request written byte for byte on a socket: {@code key} goes into the header as ISO-8859-1
   * bytes, whatever it holds; a {@code null} key sends no Idempotency-Key.
   */
  public Answer sendRaw(
      String method, String path, Tenant tenant, String key, byte[] body, String contentType)
      throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    line(request, method + " " + rawPath(path) + " HTTP/1.1");
    line(request, "Host: " + base.getHost() + (base.getPort() > 0 ? ":" + base.getPort() : ""));
    line(request, "Authorization: " + tenant.authorization());
    if (key != null) {
      line(request, "Idempotency-Key: " + key);
    }
    line(request, "Content-Type: " + contentType);
    line(request, "Content-Length: " + body.length);
    line(request, "Connection: close");
    line(request, "");
    request.writeBytes(body);
    return sendBytes(request.toByteArray());
  }

  /**
   * Writes {@code request}, head and body, on a socket exactly as given (the caller frames it, Host
   * and all) and returns the answer: for requests no HTTP client would send, such as a corpus of
   * malformed ones.
   */
  public Answer sendBytes(byte[] request) throws IOException {
    boolean tls = "https".equals(base.getScheme());
    int port = base.getPort() > 0 ? base.getPort() : tls ? 443 : 80;
    return parse(exchange(base.getHost(), port, tls, request));
  }

  private String url(String path) {
    String b = base.toString();
    return (b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + path;
  }

  private String rawPath(String path) {
    String prefix = base.getRawPath() == null ? "" : base.getRawPath();
    if (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    return prefix + path;
  }

  private static void line(ByteArrayOutputStream out, String text) {
    out.writeBytes((text + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Writes on its own thread while this one reads: a server may answer (413) and close before it
   * has read a large body, and that answer is what the rule judges.
   */
  private byte[] exchange(String host, int port, boolean tls, byte[] request) throws IOException {
    ExecutorService writer =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "conformance-kit-raw-writer");
              t.setDaemon(true);
              return t;
            });
    try (Socket socket = tls ? SSLSocketFactory.getDefault().createSocket() : new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      OutputStream out = socket.getOutputStream();
      Future<?> written =
          writer.submit(
              () -> {
                out.write(request);
                out.flush();
                return null;
              });
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) != -1; ) {
          response.write(buffer, 0, n);
        }
      } catch (SocketTimeoutException e) {
        throw new IOException("no complete answer within " + timeout.toSeconds() + " s", e);
      } catch (IOException e) {
        // A reset after the answer: the server closed with part of the body unread.
        if (response.size() == 0) {
          throw e;
        }
      }
      written.cancel(true);
      return response.toByteArray();
    } finally {
      writer.shutdownNow();
    }
  }

  /** An HTTP/1.1 response: status line, headers, and a body framed by length, chunks or close. */
  static Answer parse(byte[] raw) throws IOException {
    int end = indexOf(raw, new byte[] {'\r', '\n', '\r', '\n'}, 0);
    if (end < 0) {
      throw new IOException("no complete response head in " + raw.length + " bytes");
    }
    String[] head = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
    String[] statusLine = head[0].split(" ", 3);
    if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/")) {
      throw new IOException("not an HTTP response: " + head[0]);
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (int i = 1; i < head.length; i++) {
      int colon = head[i].indexOf(':');
      if (colon > 0) {
        headers
            .computeIfAbsent(head[i].substring(0, colon).trim(), n -> new ArrayList<>())
            .add(head[i].substring(colon + 1).trim());
      }
    }
    Answer shell = new Answer(Integer.parseInt(statusLine[1]), headers, new byte[0]);
    byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
    if (shell.header("Transfer-Encoding").map("chunked"::equalsIgnoreCase).orElse(false)) {
      body = unchunk(body);
    } else if (shell.header("Content-Length").isPresent()) {
      int length = Integer.parseInt(shell.header("Content-Length").get().trim());
      body = Arrays.copyOf(body, Math.min(length, body.length));
    }
    return new Answer(shell.status(), shell.headers(), body);
  }

  private static byte[] unchunk(byte[] chunked) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    while (at < chunked.length) {
      int lineEnd = indexOf(chunked, new byte[] {'\r', '\n'}, at);
      if (lineEnd < 0) {
        throw new IOException("broken chunked body");
      }
      String size = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0];
      int length = Integer.parseInt(size.trim(), 16);
      if (length == 0) {
        break;
      }
      if (lineEnd + 2 + length > chunked.length) {
        throw new IOException("a chunk is cut short");
      }
      out.write(chunked, lineEnd + 2, length);
      at = lineEnd + 2 + length + 2;
    }
    return out.toByteArray();
  }

  private static int indexOf(byte[] data, byte[] pattern, int from) {
    outer:
    for (int i = from; i <= data.length - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
