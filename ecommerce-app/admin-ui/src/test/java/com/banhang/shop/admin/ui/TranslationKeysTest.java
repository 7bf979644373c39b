package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's English bundle against the code that reads it: a key used in a view but missing
 * from the bundle would show operators Vaadin's "!en: key" marker instead of a text, and nothing
 * else would notice until someone opened that view at night. The keys are read from the sources of
 * the ui package: every call of {@link Texts#t} or {@link Texts#title} names its key (or its keys,
 * one per branch of a condition) as a literal, so that this check can find it.
 */
class TranslationKeysTest {

  private static final Path UI_SOURCES = Path.of("src/main/java/com/banhang/shop/admin/ui");
  private static final Pattern CALL =
      Pattern.compile("\\b(?:Texts\\.(?:t|title)|getTranslation|I18NProvider\\.translate)\\(");
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

  private static Properties bundle;
  private static final List<String> used = new ArrayList<>();
  private static final List<String> notLiteral = new ArrayList<>();

  @BeforeAll
  static void readBundleAndSources() throws IOException {
    bundle = new Properties();
    try (InputStream in =
        TranslationKeysTest.class.getResourceAsStream("/vaadin-i18n/translations.properties")) {
      assertThat(in).as("vaadin-i18n/translations.properties on the classpath").isNotNull();
      bundle.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
    try (Stream<Path> files = Files.list(UI_SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        scan(file);
      }
    }
  }

  /** Collects the literals of each call's first argument, and the calls that name no key. */
  private static void scan(Path file) throws IOException {
    String source = Files.readString(file);
    // Texts itself passes keys on (t(key) in title): its callers are what is checked.
    boolean helper = file.getFileName().toString().equals("Texts.java");
    Matcher call = CALL.matcher(source);
    while (call.find()) {
      String first = firstArgument(source, call.end());
      Matcher literal = LITERAL.matcher(first);
      boolean any = false;
      while (literal.find()) {
        used.add(literal.group(1));
        any = true;
      }
      if (!any && !helper) {
        notLiteral.add(file.getFileName() + ": " + first.strip());
      }
    }
  }

  /** The source of the argument that starts at {@code from}, up to its comma or the call's end. */
  private static String firstArgument(String source, int from) {
    int depth = 0;
    boolean inString = false;
    for (int i = from; i < source.length(); i++) {
      char c = source.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')' || c == ',') {
        if (depth == 0) {
          return source.substring(from, i);
        }
        if (c == ')') {
          depth--;
        }
      }
    }
    return source.substring(from);
  }

  @Test
  void everyKeyTheConsoleUses_isInTheEnglishBundle() {
    assertThat(used).as("keys found in the ui sources").hasSizeGreaterThan(100);
    Set<String> missing = new TreeSet<>();
    for (String key : used) {
      if (!bundle.containsKey(key)) {
        missing.add(key);
      }
    }
    assertThat(missing).as("keys used in the ui package but missing from the bundle").isEmpty();
  }

  @Test
  void everyKeyIsNamedLiterally_soThisTestCanCheckIt() {
    assertThat(notLiteral).as("texts whose key is computed").isEmpty();
  }

  @Test
  void theBundleHoldsNoKeyNothingUses() {
    Set<String> unused = new TreeSet<>(bundle.stringPropertyNames());
    unused.removeAll(used);
    assertThat(unused).as("keys of the bundle no code reads").isEmpty();
  }

  /**
   * A text with parameters goes through MessageFormat, where a lone apostrophe starts a quote and
   * silently swallows the placeholders after it.
   */
  @Test
  void textsWithParameters_areValidMessageFormats_withTheirApostrophesDoubled() {
    List<String> wrong = new ArrayList<>();
    for (String key : bundle.stringPropertyNames()) {
      String text = bundle.getProperty(key);
      if (!text.matches("(?s).*\\{\\d.*")) {
        continue;
      }
      try {
        new MessageFormat(text);
      } catch (IllegalArgumentException e) {
        wrong.add(key + ": " + e.getMessage());
        continue;
      }
      if (text.replace("''", "").contains("'")) {
        wrong.add(key + ": single apostrophe");
      }
    }
    assertThat(wrong).isEmpty();
  }

  /** A text without parameters is shown as written (Vaadin's provider formats only with them). */
  @Test
  void textsWithoutParameters_keepTheirApostrophesSingle() {
    List<String> doubled = new ArrayList<>();
    for (String key : bundle.stringPropertyNames()) {
      String text = bundle.getProperty(key);
      if (!text.matches("(?s).*\\{\\d.*") && text.contains("''")) {
        doubled.add(key);
      }
    }
    assertThat(doubled).as("texts shown with two apostrophes").isEmpty();
  }
}
