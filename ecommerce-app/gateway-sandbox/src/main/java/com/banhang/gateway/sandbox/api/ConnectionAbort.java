package com.banhang.gateway.sandbox.api;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Breaks a response in the middle, for the {@code RESET} drop mode: the client has sent its
 * request, the charge is committed (or, for a request lost on its way to the processor, nothing
 * is), and then the connection fails before a whole answer arrives, as when a proxy or the network
 * dies. The client must see a transport error, not a status code.
 *
 * <p>How: promise more bytes in {@code Content-Length} than are ever written, write a few, flush
 * them so the status line and headers are on the wire, and stop. The server then cannot complete
 * the message and closes the connection; the client fails with "premature end of body" or
 * "connection reset".
 */
final class ConnectionAbort {

  /** Bytes promised beyond what is written; any positive number breaks the message. */
  private static final int MISSING_BYTES = 4096;

  /** Bytes of the real answer that reach the client before the break. */
  private static final int BYTES_SENT = 8;

  private ConnectionAbort() {}

  /**
   * Writes the start of {@code body} under a status line and headers that promise more, then
   * flushes. Afterwards nothing else may be written to the response.
   */
  static void abort(HttpServletResponse response, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    int sent = Math.min(BYTES_SENT, bytes.length);
    response.setStatus(status);
    response.setContentType("application/json");
    response.setContentLengthLong((long) bytes.length + MISSING_BYTES);
    ServletOutputStream out = response.getOutputStream();
    out.write(bytes, 0, sent);
    out.flush();
    // Commits for real: without it Liberty keeps the bytes buffered and, at the end of the request,
    // replaces our Content-Length with the true length, which makes a complete, valid answer.
    response.flushBuffer();
  }
}
