package com.banhang.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Markdown page names that must be in the repository, by a narrow rule, so that a name the
 * check reports is almost surely stale and not a word that happens to look like one.
 *
 * <p>Only code is read: inline code spans and the lines of fenced blocks, except blocks marked
 * {@code text} or {@code output}, which hold what a run printed then. In it, a name is
 *
 * <ul>
 *   <li>a <b>test class</b>: an UpperCamelCase word ending in {@code IT} or {@code Test} ({@code
 *       OrderIdempotencyIT}, {@code ShopClientTest#method}, {@code it.com.banhang.shop.MetricsIT});
 *       it must be some {@code <name>.java} in the tree;
 *   <li>a <b>Java file</b>: {@code Something.java}, alone or after folders; it must be in the tree;
 *   <li>a <b>path</b> starting with one of {@link #PATH_ROOTS}; it must be a file or folder of the
 *       tree, from the top or inside a module ({@code src/test/liberty/config/server.xml}).
 * </ul>
 *
 * <p>Not names: {@code ...PropertiesTest} (an abbreviation of the name before it),
 * {@code @FuzzTest} (an annotation), {@code IDEMPOTENCY_NEW_KEYS_LIMIT} (no lower case), paths with
 * a placeholder or a pattern ({@code sql/<vendor>}, {@code ecommerce-app/*}, {@code {id}}, {@code
 * ...}), paths into build output ({@code target/}), and {@code rev:path}, a file in the history
 * ({@code git show 97dcdf4:bench/IdempotencyBench.java}).
 *
 * <p>Links are checked apart ({@link #links}): a relative link must reach a file, and its {@code
 * #anchor} a heading or an {@code <a id>} of that page.
 */
final class DocNames {

  /** The folders a path in the docs may start with: the repository's own top-level folders. */
  static final List<String> PATH_ROOTS =
      List.of("ecommerce-app/", "sql/", "src/", "bench/", "scripts/", "docs/", ".ci/");

  enum Kind {
    TEST_CLASS,
    JAVA_FILE,
    PATH
  }

  /** One name found on a page: its kind, the name as the tree is searched for it, its line. */
  record Name(Kind kind, String name, int line) {}

  /** One relative link on a page: the target as written, its line. */
  record Link(String target, int line) {}

  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)\\s*(\\w*)");

  /** Fenced blocks of recorded output: they name what was there when they were recorded. */
  private static final Set<String> OUTPUT_FENCES = Set.of("text", "output");

  private static final Pattern TOKEN_SEPARATORS = Pattern.compile("[\\s,;()=\"'\\[\\]|]+");
  private static final Pattern TEST_CLASS =
      Pattern.compile(
          "(?<![\\w@$])(\\.\\.\\.)?([A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]*(?:IT|Test))\\b");
  private static final Pattern JAVA_FILE =
      Pattern.compile("(?:[\\w.-]+/)*[A-Z][A-Za-z0-9_]*\\.java");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

  private DocNames() {}

  /** Every name of {@code page}'s code, in the order written. */
  static List<Name> names(String page) {
    List<Name> names = new ArrayList<>();
    forEachCodeLine(page, (line, code) -> names.addAll(namesIn(code, line)));
    return names;
  }

  /** Every relative link of {@code page} (not {@code http:}, {@code mailto:} and the like). */
  static List<Link> links(String page) {
    List<Link> links = new ArrayList<>();
    String[] lines = page.split("\n", -1);
    boolean fenced = false;
    for (int i = 0; i < lines.length; i++) {
      if (FENCE.matcher(lines[i]).find()) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher link = LINK.matcher(CODE_SPAN.matcher(lines[i]).replaceAll(""));
      while (link.find()) {
        String target = link.group(1);
        if (!target.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
          links.add(new Link(target, i + 1));
        }
      }
    }
    return links;
  }

  /**
   * The anchors a page offers: GitHub's slug of each heading (lower case, punctuation dropped,
   * spaces as hyphens, {@code -1}, {@code -2} for repeats) and each {@code <a id>} or {@code <a
   * name>}.
   */
  static Set<String> anchors(String page) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    String[] lines = page.split("\n", -1);
    boolean fenced = false;
    for (String line : lines) {
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
      while (explicit.find()) {
        anchors.add(explicit.group(1));
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug =
            heading
                .group(1)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{N}_\\- ]", "")
                .replace(' ', '-');
        int repeat = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
      }
    }
    return anchors;
  }

  /** The names in one line of code. */
  static List<Name> namesIn(String code, int line) {
    List<Name> names = new ArrayList<>();
    for (String token : TOKEN_SEPARATORS.split(code)) {
      String path = token.startsWith("../") ? token.replaceFirst("^(\\.\\./)+", "") : token;
      if (PATH_ROOTS.stream().anyMatch(path::startsWith)) {
        path = path.replaceFirst("#.*$", "").replaceFirst("[/.:]+$", "");
        if (!isPattern(path) && !path.matches("(.*/)?target(/.*)?")) {
          names.add(new Name(Kind.PATH, path, line));
        }
        continue;
      }
      if (token.contains(":") && token.matches(".*:(\\.\\./)*[\\w.-]+/.*")) {
        continue; // rev:path, a file of another commit
      }
      if (JAVA_FILE.matcher(token).matches()) {
        names.add(new Name(token.contains("/") ? Kind.PATH : Kind.JAVA_FILE, token, line));
        continue;
      }
      Matcher test = TEST_CLASS.matcher(token);
      while (test.find()) {
        if (test.group(1) == null) {
          names.add(new Name(Kind.TEST_CLASS, test.group(2), line));
        }
      }
    }
    return names;
  }

  private static boolean isPattern(String path) {
    return path.contains("*")
        || path.contains("<")
        || path.contains("{")
        || path.contains("$")
        || path.contains("...");
  }

  private interface CodeLine {
    void accept(int line, String code);
  }

  /**
   * Calls {@code action} with each line of a fenced block, and with the text of each code span,
   * which may run over several lines of one paragraph (its line breaks read as spaces, its line the
   * one it starts on).
   */
  private static void forEachCodeLine(String page, CodeLine action) {
    String[] lines = page.split("\n", -1);
    boolean fenced = false;
    boolean output = false;
    StringBuilder paragraph = new StringBuilder();
    int paragraphStart = 0;
    for (int i = 0; i < lines.length; i++) {
      Matcher fenceLine = FENCE.matcher(lines[i]);
      boolean fence = fenceLine.find();
      if (fence || fenced || lines[i].isBlank()) {
        spans(paragraph, paragraphStart, action);
        paragraph.setLength(0);
      }
      if (fence) {
        fenced = !fenced;
        output = fenced && OUTPUT_FENCES.contains(fenceLine.group(2));
      } else if (fenced) {
        if (!output) {
          action.accept(i + 1, lines[i]);
        }
      } else if (!lines[i].isBlank()) {
        if (paragraph.isEmpty()) {
          paragraphStart = i;
        }
        paragraph.append(lines[i]).append('\n');
      }
    }
    spans(paragraph, paragraphStart, action);
  }

  private static void spans(CharSequence paragraph, int firstLine, CodeLine action) {
    Matcher span = CODE_SPAN.matcher(paragraph);
    while (span.find()) {
      int line = firstLine + 1;
      for (int c = 0; c < span.start(); c++) {
        if (paragraph.charAt(c) == '\n') {
          line++;
        }
      }
      action.accept(line, span.group(2).replace('\n', ' '));
    }
  }
}
