package com.banhang.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.docs.DocNames.Kind;
import com.banhang.docs.DocNames.Link;
import com.banhang.docs.DocNames.Name;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every test class, Java file and repository path that a page of the repository names in code (by
 * the narrow rule of {@link DocNames}) exists somewhere in the tree, and every relative link
 * reaches its file and heading. A rename that forgets a page fails here, with the page, the line
 * and the name.
 *
 * <p>The pages: README.md, docs/*.md and every other Markdown file of the tree. The tree: every
 * file and folder under the repository's top except {@code .git}, build output ({@code target}) and
 * generated corpora, so a name counts only if it is in the sources.
 */
class DocsNameWhatExistsTest {

  /**
   * Names a page may still carry although the tree no longer has them, as {@code "page: name"}.
   * Each entry is a name that is stale and belongs to a page section someone else is rewriting;
   * remove it when that page is fixed. Empty when every page is right.
   */
  private static final Set<String> KNOWN_STALE = Set.of();

  private static final Set<String> SKIPPED_FOLDERS =
      Set.of(".git", "target", "node_modules", ".cifuzz-corpus", ".idea", ".vscode");

  private static Path root;

  /** Every file and folder of the tree, and every tail of each path after a '/'. */
  private static final Set<String> pathsAndTheirTails = new HashSet<>();

  private static final Set<String> fileNames = new HashSet<>();
  private static final List<String> pages = new ArrayList<>();

  @BeforeAll
  static void readTheTree() throws IOException {
    String top = System.getProperty("shop.root");
    assertThat(top).as("system property shop.root (set by this module's pom)").isNotBlank();
    root = Paths.get(top).toAbsolutePath().normalize();
    assertThat(root.resolve("README.md")).as("the repository's top").isRegularFile();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(root) && SKIPPED_FOLDERS.contains(dir.getFileName().toString())) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            if (!dir.equals(root)) {
              addWithTails(relative(dir));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String path = relative(file);
            addWithTails(path);
            fileNames.add(file.getFileName().toString());
            if (path.endsWith(".md")) {
              pages.add(path);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    pages.sort(null);
    for (String folder : DocNames.PATH_ROOTS) {
      assertThat(root.resolve(folder)).as("a path root of DocNames").isDirectory();
    }
    assertThat(pages).contains("README.md", "docs/testing.md", "docs/sqlserver.md");
  }

  @Test
  void everyTestClassJavaFileAndPathThePagesNameExists() {
    Set<String> missing = new TreeSet<>();
    int checked = 0;
    for (String page : pages) {
      for (Name name : DocNames.names(read(page))) {
        checked++;
        if (!exists(name) && !KNOWN_STALE.contains(page + ": " + name.name())) {
          missing.add(page + ":" + name.line() + ": " + describe(name));
        }
      }
    }
    assertThat(checked).as("names checked").isGreaterThan(100);
    assertThat(missing)
        .as(
            "names in the docs that exist nowhere in the tree (find what each became with"
                + " git log -S'<name>' or git log --follow -- <old path>)")
        .isEmpty();
  }

  @Test
  void everyRelativeLinkReachesItsFileAndHeading() {
    Map<String, Set<String>> anchors = new HashMap<>();
    Set<String> broken = new TreeSet<>();
    for (String page : pages) {
      Path folder = root.resolve(page).getParent();
      for (Link link : DocNames.links(read(page))) {
        String[] parts = link.target().split("#", 2);
        Path target = parts[0].isEmpty() ? root.resolve(page) : folder.resolve(parts[0]);
        target = target.normalize();
        if (!Files.exists(target)) {
          broken.add(page + ":" + link.line() + ": no file " + link.target());
          continue;
        }
        if (parts.length == 2 && target.toString().endsWith(".md")) {
          String targetPage = relative(target);
          Set<String> offered = anchors.computeIfAbsent(targetPage, p -> DocNames.anchors(read(p)));
          if (!offered.contains(parts[1])) {
            broken.add(
                page + ":" + link.line() + ": no heading #" + parts[1] + " in " + targetPage);
          }
        }
      }
    }
    assertThat(broken).as("relative links that lead nowhere").isEmpty();
  }

  @Test
  void everyKnownStaleNameIsStillStale() {
    // An exception that no longer matches anything is a name someone fixed: drop it from the list.
    Set<String> stillStale = new TreeSet<>();
    for (String page : pages) {
      for (Name name : DocNames.names(read(page))) {
        if (!exists(name) && KNOWN_STALE.contains(page + ": " + name.name())) {
          stillStale.add(page + ": " + name.name());
        }
      }
    }
    assertThat(stillStale).containsExactlyInAnyOrderElementsOf(KNOWN_STALE);
  }

  private static boolean exists(Name name) {
    return switch (name.kind()) {
      case TEST_CLASS -> fileNames.contains(name.name() + ".java");
      case JAVA_FILE -> fileNames.contains(name.name());
      case PATH -> pathsAndTheirTails.contains(name.name());
    };
  }

  private static void addWithTails(String path) {
    for (int slash = -1; ; slash = path.indexOf('/', slash + 1)) {
      pathsAndTheirTails.add(path.substring(slash + 1));
      if (path.indexOf('/', slash + 1) < 0) {
        return;
      }
    }
  }

  private static String describe(Name name) {
    return (name.kind() == Kind.TEST_CLASS
            ? "test class "
            : name.kind() == Kind.PATH ? "" : "file ")
        + name.name();
  }

  private static String relative(Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }

  private static String read(String page) {
    try {
      return Files.readString(root.resolve(page), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
