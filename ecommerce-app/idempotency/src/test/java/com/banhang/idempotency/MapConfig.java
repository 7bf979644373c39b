package com.banhang.idempotency;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigBuilder;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * A MicroProfile Config over a map, for unit tests (no Config implementation is on the test class
 * path). A name missing from the map is looked up in its environment variable form, as MicroProfile
 * Config does. Also the tests' {@link ConfigProviderResolver}, serving an empty config to code that
 * calls {@code ConfigProvider.getConfig()}.
 */
public final class MapConfig implements Config {

  private final Map<String, String> values;

  public MapConfig(Map<String, String> values) {
    this.values = new ConcurrentHashMap<>(values);
  }

  @Override
  public <T> T getValue(String name, Class<T> type) {
    return getOptionalValue(name, type).orElseThrow();
  }

  @Override
  public ConfigValue getConfigValue(String name) {
    throw new UnsupportedOperationException();
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
    String value = values.get(name);
    if (value == null) {
      // As MicroProfile Config's environment variables: non-alphanumerics to '_', then upper case.
      String variable = name.replaceAll("[^A-Za-z0-9]", "_");
      value =
          values.getOrDefault(variable, values.get(variable.toUpperCase(java.util.Locale.ROOT)));
    }
    if (value == null || value.isEmpty()) {
      return Optional.empty();
    }
    if (type == String.class) {
      return Optional.of((T) value);
    }
    if (type == Integer.class || type == int.class) {
      return Optional.of((T) Integer.valueOf(value));
    }
    if (type == Boolean.class || type == boolean.class) {
      // MicroProfile Config's boolean converter.
      return Optional.of(
          (T)
              Boolean.valueOf(
                  List.of("true", "1", "yes", "y", "on")
                      .contains(value.toLowerCase(java.util.Locale.ROOT))));
    }
    if (type == Duration.class) {
      return Optional.of((T) Duration.parse(value));
    }
    throw new UnsupportedOperationException(type.getName());
  }

  @Override
  public Iterable<String> getPropertyNames() {
    return List.copyOf(values.keySet());
  }

  @Override
  public Iterable<ConfigSource> getConfigSources() {
    return List.of();
  }

  @Override
  public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
    return Optional.empty();
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    throw new IllegalArgumentException();
  }

  /** Serves an empty {@link MapConfig} to {@code ConfigProvider.getConfig()}. */
  public static final class Resolver extends ConfigProviderResolver {

    private static final Config EMPTY = new MapConfig(Map.of());

    @Override
    public Config getConfig() {
      return EMPTY;
    }

    @Override
    public Config getConfig(ClassLoader loader) {
      return EMPTY;
    }

    @Override
    public ConfigBuilder getBuilder() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void registerConfig(Config config, ClassLoader classLoader) {}

    @Override
    public void releaseConfig(Config config) {}
  }
}
