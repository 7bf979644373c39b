package com.banhang.shop.web.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The offline dependency audit (docs/security.md): the root pom's enforcer ban list keeps out the
 * Jackson 2 that Vaadin's BOM pins, lets through what the build resolves, and the table of
 * docs/security.md names the versions the build really resolves.
 */
class DependencyAdvisoriesTest {

  /** What Vaadin 24.9.14's BOM pins (flow-server's Jackson 2), inside the 2026 advisories. */
  private static final String VAADIN_JACKSON2 = "2.21.1";

  private static final Path ROOT = repositoryRoot();

  @Test
  void theJackson2ThatVaadinPinsIsBanned() throws Exception {
    Map<String, List<String>> banned = bannedRanges();
    assertThat(isBanned(banned, "com.fasterxml.jackson.core:jackson-databind", VAADIN_JACKSON2))
        .as("jackson-databind %s is banned", VAADIN_JACKSON2)
        .isTrue();
    assertThat(isBanned(banned, "com.fasterxml.jackson.core:jackson-core", VAADIN_JACKSON2))
        .as("jackson-core %s is banned", VAADIN_JACKSON2)
        .isTrue();
  }

  @Test
  void theJacksonOnTheClassPathIsOutsideEveryBannedRange() throws Exception {
    Map<String, List<String>> banned = bannedRanges();
    Map<String, String> resolved = resolvedArtifacts();
    List<String> jackson =
        resolved.keySet().stream()
            .filter(key -> key.startsWith("com.fasterxml.jackson.") || key.startsWith("tools."))
            .toList();
    assertThat(jackson).contains("com.fasterxml.jackson.core:jackson-databind");
    for (String key : jackson) {
      assertThat(isBanned(banned, key, resolved.get(key)))
          .as("%s:%s is inside a banned range", key, resolved.get(key))
          .isFalse();
    }
  }

  @Test
  void everyRowOfTheDependencyTableNamesTheVersionTheBuildResolves() throws Exception {
    Map<String, String> resolved = resolvedArtifacts();
    Map<String, String> documented = documentedVersions();
    assertThat(documented).containsKeys("com.fasterxml.jackson.core:jackson-databind");
    List<String> stale = new ArrayList<>();
    documented.forEach(
        (key, version) -> {
          if (!version.equals(resolved.get(key))) {
            stale.add(key + " documented " + version + ", resolved " + resolved.get(key));
          }
        });
    assertThat(stale).as("rows of docs/security.md that name another version").isEmpty();
  }

  @Test
  void readsRangesAsTheEnforcerDoes() {
    assertThat(inRanges("[2.0.0,2.21.4),[2.22.0,2.22.1)", "2.21.1")).isTrue();
    assertThat(inRanges("[2.0.0,2.21.4),[2.22.0,2.22.1)", "2.21.4")).isFalse();
    assertThat(inRanges("[2.0.0,2.21.4),[2.22.0,2.22.1)", "2.22.0")).isTrue();
    assertThat(inRanges("[2.0.0,2.21.4),[2.22.0,2.22.1)", "2.23.0")).isFalse();
    assertThat(inRanges("[,42.7.2)", "42.7.14")).isFalse();
    assertThat(inRanges("[,42.7.2)", "42.7.1")).isTrue();
  }

  /** groupId:artifactId to its banned ranges, from the root pom's enforcer execution. */
  private static Map<String, List<String>> bannedRanges() throws Exception {
    Document pom =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(ROOT.resolve("pom.xml").toFile());
    Map<String, List<String>> banned = new TreeMap<>();
    NodeList executions = pom.getElementsByTagName("execution");
    for (int i = 0; i < executions.getLength(); i++) {
      Element execution = (Element) executions.item(i);
      NodeList ids = execution.getElementsByTagName("id");
      String id = ids.getLength() == 0 ? "" : ids.item(0).getTextContent().trim();
      if (!id.equals("no-dependency-with-a-known-advisory")) {
        continue;
      }
      NodeList excludes = execution.getElementsByTagName("exclude");
      for (int j = 0; j < excludes.getLength(); j++) {
        String[] parts = excludes.item(j).getTextContent().trim().split(":", 3);
        banned.computeIfAbsent(parts[0] + ":" + parts[1], key -> new ArrayList<>()).add(parts[2]);
      }
    }
    assertThat(banned).as("the enforcer's ban list in the root pom.xml").isNotEmpty();
    return banned;
  }

  private static boolean isBanned(Map<String, List<String>> banned, String key, String version) {
    return banned.getOrDefault(key, List.of()).stream()
        .anyMatch(ranges -> inRanges(ranges, version));
  }

  /**
   * Maven's range syntax as the enforcer reads it, for the numeric versions of this ban list:
   * "[2.0.0,2.21.4),[2.22.0,2.22.1)" is a union of intervals, "[" and "]" include the bound, an
   * empty bound is open.
   */
  static boolean inRanges(String ranges, String version) {
    Matcher interval = Pattern.compile("([\\[(])([^,\\])]*),([^,\\])]*)([\\])])").matcher(ranges);
    boolean any = false;
    while (interval.find()) {
      any = true;
      String low = interval.group(2).trim();
      String high = interval.group(3).trim();
      boolean aboveLow =
          low.isEmpty()
              || (interval.group(1).equals("[")
                  ? compare(version, low) >= 0
                  : compare(version, low) > 0);
      boolean belowHigh =
          high.isEmpty()
              || (interval.group(4).equals("]")
                  ? compare(version, high) <= 0
                  : compare(version, high) < 0);
      if (aboveLow && belowHigh) {
        return true;
      }
    }
    assertThat(any).as("a version range: %s", ranges).isTrue();
    return false;
  }

  /** Numeric dotted versions; a non-numeric part (a qualifier such as -M4) counts as zero. */
  private static int compare(String left, String right) {
    String[] a = left.split("[.-]");
    String[] b = right.split("[.-]");
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      int x = i < a.length ? number(a[i]) : 0;
      int y = i < b.length ? number(b[i]) : 0;
      if (x != y) {
        return Integer.compare(x, y);
      }
    }
    return 0;
  }

  private static int number(String part) {
    return part.matches("\\d+") ? Integer.parseInt(part) : 0;
  }

  /**
   * groupId:artifactId to version of every jar on this module's test class path: the WAR's
   * libraries (compile and runtime scope) and the provided JDBC drivers are among them, each at the
   * version the build resolves.
   */
  private static Map<String, String> resolvedArtifacts() {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> entries = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      entries.add(entry.replace(File.separatorChar, '/'));
    }
    // The local repository (wherever -Dmaven.repo.local puts it): where JUnit's own jar lies.
    String junit = "/org/junit/jupiter/junit-jupiter-api/";
    String repository =
        entries.stream()
            .filter(entry -> entry.contains(junit))
            .map(entry -> entry.substring(0, entry.indexOf(junit) + 1))
            .findFirst()
            .orElseThrow();
    Map<String, String> resolved = new TreeMap<>();
    // <repository><group as path>/<artifactId>/<version>/<artifactId>-<version>[-classifier].jar
    Pattern jar = Pattern.compile("(.+)/([^/]+)/([^/]+)/\\2-\\3(-[^/]+)?\\.jar");
    for (String entry : entries) {
      if (!entry.startsWith(repository)) {
        continue;
      }
      Matcher m = jar.matcher(entry.substring(repository.length()));
      if (m.matches()) {
        resolved.put(m.group(1).replace('/', '.') + ":" + m.group(2), m.group(3));
      }
    }
    assertThat(resolved).as("jars on the test class path").isNotEmpty();
    return resolved;
  }

  /** The `group:artifact` | version columns of every table row of docs/security.md. */
  private static Map<String, String> documentedVersions() throws Exception {
    Pattern row = Pattern.compile("^\\| `([^`:]+:[^`:]+)` \\| ([^ |]+) \\|.*");
    Map<String, String> documented = new TreeMap<>();
    for (String line : Files.readAllLines(ROOT.resolve("docs/security.md"))) {
      Matcher m = row.matcher(line);
      if (m.matches()) {
        documented.put(m.group(1), m.group(2));
      }
    }
    return documented;
  }

  private static Path repositoryRoot() {
    Path module = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    return module.getParent().getParent();
  }
}
