package com.banhang.shop.web.json;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A JSON request body read into a record (every request type of the shop's API) must be a JSON
 * object. Without this, JSON-B reads {@code [{...}]} as the object inside it, so a body the
 * fingerprint sees as an array would create an order (docs/problems.md).
 */
@Provider
public class JsonObjectBodies implements ReaderInterceptor {

  @Override
  public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
    MediaType type = context.getMediaType();
    if (type != null
        && type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
        && context.getType().isRecord()) {
      InputStream in = new BufferedInputStream(context.getInputStream());
      in.mark(1 << 16);
      int b;
      do {
        b = in.read();
      } while (b == ' ' || b == '\t' || b == '\r' || b == '\n');
      in.reset();
      if (b != -1 && b != '{') {
        throw new JsonbException("the body must be a JSON object");
      }
      context.setInputStream(in);
    }
    return context.proceed();
  }
}
