package com.banhang.gateway.sandbox.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Refuses a request body larger than {@value #MAX_BODY_BYTES} bytes with 413 {@code
 * request_too_large}, on every endpoint and before anything reads it: a charge or a fault setting
 * is a few hundred bytes, and no caller may make the sandbox hold megabytes in memory. A declared
 * {@code Content-Length} over the limit is refused without reading; a body without one (chunked) is
 * read up to one byte past the limit, then refused or handed on as read.
 */
@Provider
@PreMatching
public class RequestBodyLimit implements ContainerRequestFilter {

  /** 64 KiB. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  /** The code of the refusal. */
  public static final String REQUEST_TOO_LARGE = "request_too_large";

  /** HTTP 413 Content Too Large. */
  static final int CONTENT_TOO_LARGE = 413;

  @Override
  public void filter(ContainerRequestContext request) throws IOException {
    String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
    if (declared != null && tooLarge(declared)) {
      refuse(request);
      return;
    }
    if (!request.hasEntity()) {
      return;
    }
    byte[] body = readAtMost(request.getEntityStream(), MAX_BODY_BYTES);
    if (body == null) {
      refuse(request);
      return;
    }
    request.setEntityStream(new ByteArrayInputStream(body));
  }

  private static boolean tooLarge(String contentLength) {
    try {
      return Long.parseLong(contentLength.trim()) > MAX_BODY_BYTES;
    } catch (NumberFormatException e) {
      // A malformed length is the container's business; the body is still read with the bound.
      return false;
    }
  }

  /** The whole stream if it holds at most {@code max} bytes, else null (read no further). */
  static byte[] readAtMost(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int total = 0;
    int read;
    while ((read = in.read(buffer, 0, Math.min(buffer.length, max + 1 - total))) > 0) {
      total += read;
      if (total > max) {
        return null;
      }
      out.write(buffer, 0, read);
    }
    return out.toByteArray();
  }

  private static void refuse(ContainerRequestContext request) {
    request.abortWith(
        ApiError.response(
            CONTENT_TOO_LARGE,
            REQUEST_TOO_LARGE,
            "the request body is larger than " + MAX_BODY_BYTES + " bytes"));
  }
}
