package com.banhang.shop.client;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Intents on disk, one small file per intent named {@code <intent id>.intent}, so that a client
 * that crashed or was restarted resumes each intent under its key with its exact bytes.
 *
 * <p>A file is JSON: the key, method, path, user, times, and the body in Base64 with its SHA-256.
 * It is written to a temporary file in the same folder, forced to the disk, and then renamed over
 * the old one with {@link StandardCopyOption#ATOMIC_MOVE}: a reader sees the old intent or the new
 * one, never half of one, and a crash in the middle leaves at most a stray {@code .tmp} file, which
 * is never read. The checksum catches what the rename cannot: a file damaged or cut short by
 * something else.
 *
 * <p>A file that cannot be read is never deleted (it may hold the only copy of a key the shop has
 * charged under) and never stops the others: {@link #pending()} skips it and logs a warning, and
 * {@link #unreadable()} lists it with the reason, for a person to look at.
 */
public final class FileIntentStore implements IntentStore {

  /** An intent file that could not be read, and why. */
  public record UnreadableIntentFile(Path file, String reason) {}

  private static final System.Logger LOG = System.getLogger(FileIntentStore.class.getName());
  private static final String SUFFIX = ".intent";
  private static final int FORMAT = 1;

  /** Intent ids become file names: nothing that could leave the folder or hide a file. */
  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,99}");

  private final Path folder;

  private FileIntentStore(Path folder) {
    this.folder = folder;
  }

  static FileIntentStore open(Path folder) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new IntentStoreException("cannot create the intent folder " + folder, e);
    }
    return new FileIntentStore(folder);
  }

  /** The folder the intents are kept in. */
  public Path folder() {
    return folder;
  }

  @Override
  public void save(Intent intent) {
    Path target = fileOf(intent.id());
    byte[] content = write(intent);
    Path temporary = null;
    try {
      temporary = Files.createTempFile(folder, "." + intent.id() + "-", ".tmp");
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        // On the disk before the rename makes it the intent: a rename can reach the disk before
        // the data it names, and a crash then would leave an empty intent file.
        channel.force(true);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
      temporary = null;
      forceFolder();
    } catch (IOException e) {
      throw new IntentStoreException("cannot write intent " + intent.id() + " to " + target, e);
    } finally {
      if (temporary != null) {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
          // A stray .tmp file is never read; the error that matters is already being thrown.
        }
      }
    }
  }

  @Override
  public Optional<Intent> find(String intentId) {
    Path file = fileOf(intentId);
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new IntentStoreException("cannot read intent file " + file, e);
    }
    try {
      return Optional.of(read(content, intentId));
    } catch (UnreadableIntentException e) {
      throw new IntentStoreException(
          "intent file " + file + " is unreadable: " + e.getMessage() + "; it is left in place", e);
    }
  }

  @Override
  public List<Intent> pending() {
    List<Intent> intents = new ArrayList<>();
    List<UnreadableIntentFile> unreadable = new ArrayList<>();
    scan(intents, unreadable);
    for (UnreadableIntentFile file : unreadable) {
      LOG.log(
          Level.WARNING,
          "skipping intent file {0}, it is unreadable: {1}",
          file.file(),
          file.reason());
    }
    return intents;
  }

  /** The intent files that cannot be read, each with the reason; empty when all are fine. */
  public List<UnreadableIntentFile> unreadable() {
    List<UnreadableIntentFile> unreadable = new ArrayList<>();
    scan(new ArrayList<>(), unreadable);
    return unreadable;
  }

  @Override
  public void remove(String intentId) {
    try {
      Files.deleteIfExists(fileOf(intentId));
      forceFolder();
    } catch (IOException e) {
      throw new IntentStoreException("cannot remove intent " + intentId + " from " + folder, e);
    }
  }

  private void scan(List<Intent> intents, List<UnreadableIntentFile> unreadable) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        String id = name.substring(0, name.length() - SUFFIX.length());
        try {
          intents.add(read(Files.readAllBytes(file), id));
        } catch (UnreadableIntentException | IOException e) {
          unreadable.add(new UnreadableIntentFile(file, e.getMessage()));
        }
      }
    } catch (IOException e) {
      throw new IntentStoreException("cannot list the intent folder " + folder, e);
    }
    intents.sort(Comparator.comparing(Intent::createdAt).thenComparing(Intent::id));
  }

  private Path fileOf(String intentId) {
    if (intentId == null || !SAFE_ID.matcher(intentId).matches()) {
      throw new IllegalArgumentException("not an intent id: " + intentId);
    }
    return folder.resolve(intentId + SUFFIX);
  }

  /**
   * Forces the folder's entry for a renamed or deleted file to the disk. Linux allows it; other
   * systems may refuse to open a folder, and there the rename is as durable as the system makes it.
   */
  private void forceFolder() {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException notSupported) {
      // Best effort: see above.
    }
  }

  static byte[] write(Intent intent) {
    JsonObjectBuilder json =
        Json.createObjectBuilder()
            .add("format", FORMAT)
            .add("id", intent.id())
            .add("idempotencyKey", intent.idempotencyKey())
            .add("method", intent.method())
            .add("path", intent.path())
            .add("createdAt", intent.createdAt().toString());
    intent.user().ifPresent(user -> json.add("user", user));
    intent.keyExpiresAt().ifPresent(expiry -> json.add("keyExpiresAt", expiry.toString()));
    byte[] body = intent.body();
    json.add("bodySha256", sha256(body)).add("body", Base64.getEncoder().encodeToString(body));
    return (json.build().toString() + "\n").getBytes(StandardCharsets.UTF_8);
  }

  static Intent read(byte[] content, String expectedId) throws UnreadableIntentException {
    JsonObject json;
    try (JsonReader reader = Json.createReader(new ByteArrayInputStream(content))) {
      JsonValue value = reader.readValue();
      if (value.getValueType() != JsonValue.ValueType.OBJECT) {
        throw new UnreadableIntentException("not a JSON object");
      }
      json = value.asJsonObject();
    } catch (JsonException | IllegalStateException e) {
      throw new UnreadableIntentException("not JSON (cut short?): " + e.getMessage());
    }
    if (!(json.get("format") instanceof JsonNumber format) || format.intValue() != FORMAT) {
      throw new UnreadableIntentException("format is not " + FORMAT);
    }
    String id = required(json, "id");
    if (!id.equals(expectedId)) {
      throw new UnreadableIntentException("holds intent " + id + ", not " + expectedId);
    }
    byte[] body;
    try {
      body = Base64.getDecoder().decode(required(json, "body"));
    } catch (IllegalArgumentException e) {
      throw new UnreadableIntentException("body is not Base64");
    }
    if (!sha256(body).equals(required(json, "bodySha256"))) {
      throw new UnreadableIntentException("body does not match its SHA-256");
    }
    try {
      return new Intent(
          id,
          required(json, "idempotencyKey"),
          required(json, "method"),
          required(json, "path"),
          optional(json, "user"),
          body,
          Instant.parse(required(json, "createdAt")),
          optional(json, "keyExpiresAt").map(Instant::parse));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      throw new UnreadableIntentException("invalid member: " + e.getMessage());
    }
  }

  private static String required(JsonObject json, String name) throws UnreadableIntentException {
    return optional(json, name)
        .orElseThrow(() -> new UnreadableIntentException("member " + name + " is missing"));
  }

  private static Optional<String> optional(JsonObject json, String name) {
    return json.get(name) instanceof JsonString string
        ? Optional.of(string.getString())
        : Optional.empty();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** A file's content is not an intent; checked, so that no caller forgets to handle it. */
  static final class UnreadableIntentException extends Exception {
    private static final long serialVersionUID = 1L;

    UnreadableIntentException(String reason) {
      super(reason);
    }
  }
}
