package com.banhang.shop.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a {@link ShopClient} keeps its intents between the first try and a final answer. An intent
 * is saved before its first request leaves and removed when a final answer arrives, so what the
 * store holds is exactly the intents whose outcome the caller does not know yet.
 *
 * <p>{@link #inMemory()} forgets them when the process ends; {@link #inFolder(Path)} keeps them on
 * disk, so that a client started again can {@link ShopClient#resume(String) resume} each one with
 * its key and bytes. Implementations must be safe for concurrent use.
 */
public interface IntentStore {

  /**
   * Keeps {@code intent}, replacing any stored intent with the same id. Returns only once the
   * intent would survive what the store promises to survive.
   *
   * @throws IntentStoreException if it could not be kept
   */
  void save(Intent intent);

  /**
   * The stored intent with this id, or empty if there is none.
   *
   * @throws IntentStoreException if it is stored but cannot be read
   */
  Optional<Intent> find(String intentId);

  /** Every stored intent that can be read, oldest first. */
  List<Intent> pending();

  /**
   * Forgets the intent (nothing if there is none).
   *
   * @throws IntentStoreException if it could not be removed
   */
  void remove(String intentId);

  /** A store in this process's memory: intents end with the process. */
  static IntentStore inMemory() {
    return new InMemoryIntentStore();
  }

  /**
   * A store of one small file per intent in {@code folder}, created if missing: intents survive a
   * restart of the client, and of the machine.
   */
  static FileIntentStore inFolder(Path folder) {
    return FileIntentStore.open(folder);
  }
}
