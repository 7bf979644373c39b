package com.banhang.shop.client;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Intents for the life of the process: the default, for callers that do not restart mid-intent. */
final class InMemoryIntentStore implements IntentStore {

  private final Map<String, Intent> intents = new ConcurrentHashMap<>();

  @Override
  public void save(Intent intent) {
    intents.put(intent.id(), intent);
  }

  @Override
  public Optional<Intent> find(String intentId) {
    return Optional.ofNullable(intents.get(intentId));
  }

  @Override
  public List<Intent> pending() {
    return intents.values().stream().sorted(Comparator.comparing(Intent::createdAt)).toList();
  }

  @Override
  public void remove(String intentId) {
    intents.remove(intentId);
  }
}
