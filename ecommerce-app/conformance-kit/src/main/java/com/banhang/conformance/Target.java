package com.banhang.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The API under check, as the rules use it: fresh intents, and requests that carry them.
 *
 * <p>Every rule makes intents of its own (a new {@code {{unique}}}, and a new resource from the
 * setup endpoint when one is configured), so no rule sees another rule's keys or resources.
 */
public final class Target {

  /** The body's media type for every well-formed request. */
  public static final String JSON = "application/json";

  private final KitConfig config;
  private final Wire wire;

  public Target(KitConfig config) {
    this.config = config;
    this.wire = new Wire(config.baseUrl(), config.timeout());
  }

  public KitConfig config() {
    return config;
  }

  /**
   * One business intent: where it goes, with which body, for whom.
   *
   * @param tenant the caller
   * @param path the endpoint, {@code {{id}}} filled
   * @param body the body template, placeholders filled
   * @param unique the value of {@code {{unique}}}
   */
  public record Intent(Tenant tenant, String path, String body, String unique) {

    public byte[] bytes() {
      return body.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** A new key: a UUID v4, as the draft and docs/contract.md section 3 recommend. */
  public static String newKey() {
    return UUID.randomUUID().toString();
  }

  /** A new intent of {@code tenant}, with a fresh unique value. */
  public Intent intent(Tenant tenant) throws IOException, InterruptedException {
    return intent(tenant, "kit-" + UUID.randomUUID());
  }

  /**
   * A new intent of {@code tenant} with the given unique value; when a setup endpoint is
   * configured, it first creates the intent's own resource, under a key of its own.
   */
  public Intent intent(Tenant tenant, String unique) throws IOException, InterruptedException {
    String id = null;
    if (config.setupEndpoint().isPresent()) {
      String setupBody = fill(config.setupBodyTemplate().orElseThrow(), unique, null);
      Answer setup =
          wire.send(
              "POST",
              config.setupEndpoint().get(),
              tenant,
              newKey(),
              setupBody.getBytes(StandardCharsets.UTF_8),
              JSON);
      id = setup.member("id").orElse(null);
      if (!setup.success() || id == null) {
        throw new IOException(
            "the setup call "
                + config.setupEndpoint().get()
                + " gave no resource id: "
                + setup.summary());
      }
    }
    return new Intent(
        tenant,
        fill(config.endpoint(), unique, id),
        fill(config.bodyTemplate(), unique, id),
        unique);
  }

  private static String fill(String template, String unique, String id) {
    String filled = template.replace("{{unique}}", unique);
    return id == null ? filled : filled.replace("{{id}}", id);
  }

  /** The intent's request under {@code key} (sent as given; {@code null}: no header). */
  public Answer send(Intent intent, String key) throws IOException, InterruptedException {
    return send(intent, key, intent.bytes());
  }

  /** The intent's endpoint and tenant, with another body. */
  public Answer send(Intent intent, String key, byte[] body)
      throws IOException, InterruptedException {
    return wire.send(config.method(), intent.path(), intent.tenant(), key, body, JSON);
  }

  /** Written byte for byte on a socket: for header values and bodies a client would not send. */
  public Answer sendRaw(Intent intent, String key, byte[] body, String contentType)
      throws IOException {
    return wire.sendRaw(config.method(), intent.path(), intent.tenant(), key, body, contentType);
  }
}
