package com.banhang.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.docs.DocNames.Kind;
import com.banhang.docs.DocNames.Link;
import com.banhang.docs.DocNames.Name;
import org.junit.jupiter.api.Test;

/** The rule of {@link DocNames} on pages written for it: what counts as a name, what does not. */
class DocNamesTest {

  @Test
  void findsTestClassesJavaFilesAndPathsInCodeSpansAndFencedBlocks() {
    String page =
        """
        # A page

        `OrderIdempotencyIT` and `ShopClientTest#resumes`, `ProductionConfigurationIT.everyAnswer`,
        `it.com.banhang.shop.MetricsIT`; the file `Verdict.java`, the script `scripts/verify.sh`,
        the module's `src/test/liberty/config/server.xml`, the page [`docs/testing.md`](testing.md).

        ```sh
        mvn -pl ecommerce-app/idempotency test -Dtest=RequestFingerprintPropertiesTest
        ```
        """;

    assertThat(DocNames.names(page))
        .containsExactly(
            new Name(Kind.TEST_CLASS, "OrderIdempotencyIT", 3),
            new Name(Kind.TEST_CLASS, "ShopClientTest", 3),
            new Name(Kind.TEST_CLASS, "ProductionConfigurationIT", 3),
            new Name(Kind.TEST_CLASS, "MetricsIT", 4),
            new Name(Kind.JAVA_FILE, "Verdict.java", 4),
            new Name(Kind.PATH, "scripts/verify.sh", 4),
            new Name(Kind.PATH, "src/test/liberty/config/server.xml", 5),
            new Name(Kind.PATH, "docs/testing.md", 5),
            new Name(Kind.PATH, "ecommerce-app/idempotency", 8),
            new Name(Kind.TEST_CLASS, "RequestFingerprintPropertiesTest", 8));
  }

  @Test
  void leavesOutAbbreviationsAnnotationsConstantsPatternsBuildOutputAndHistory() {
    String page =
        """
        `RequestFingerprintTest`, `...PropertiesTest`, `...FuzzTest`; Jazzer's `@FuzzTest`;
        `IDEMPOTENCY_NEW_KEYS_LIMIT`, `COMMIT`; `sql/<vendor>`, `ecommerce-app/*/target/x`,
        `src/test/resources/<package>/<TestClass>Inputs/<method>/`, `bench/.../run.sh`,
        `ecommerce-app/it-h2/target/screenshots/`, `git show 97dcdf4:bench/IdempotencyBench.java`;
        prose names no class: OrderIdempotencyIT.
        """;

    assertThat(DocNames.names(page))
        .containsExactly(new Name(Kind.TEST_CLASS, "RequestFingerprintTest", 1));
  }

  @Test
  void aCodeSpanMayRunOverTwoLinesOfAParagraph_butNotPastIt() {
    String page =
        """
        The harness (`git show
        b2d418a^:bench/IdempotencyBench.java`) and `OrderIdempotencyIT`, then `NoSuchIT`.

        A new paragraph: ` and a lone backtick
        `OrderConcurrencyIT` after it.
        """;

    assertThat(DocNames.names(page))
        .containsExactly(
            new Name(Kind.TEST_CLASS, "OrderIdempotencyIT", 2),
            new Name(Kind.TEST_CLASS, "NoSuchIT", 2));
  }

  @Test
  void recordedOutputIsNotRead() {
    String page =
        """
        ```text
        behaviour com/banhang/idempotency/internal/GoneSinceTheRun.java
        ```
        ```sh
        mvn test -Dtest=ShopClientTest
        ```
        """;

    assertThat(DocNames.names(page))
        .containsExactly(new Name(Kind.TEST_CLASS, "ShopClientTest", 5));
  }

  @Test
  void aPathLosesItsAnchorAndTrailingSlash() {
    assertThat(DocNames.namesIn("ecommerce-app/gateway-sandbox/README.md#tests", 1))
        .containsExactly(new Name(Kind.PATH, "ecommerce-app/gateway-sandbox/README.md", 1));
    assertThat(DocNames.namesIn("../bench/h2-durability/", 1))
        .containsExactly(new Name(Kind.PATH, "bench/h2-durability", 1));
  }

  @Test
  void readsRelativeLinksOnly() {
    String page =
        """
        See [testing](testing.md#build-time), [below](#commands), [RFC](https://www.rfc-editor.org/),
        [mail](mailto:shop@example.com), and `[not a link](nowhere.md)` in code.
        """;

    assertThat(DocNames.links(page))
        .containsExactly(new Link("testing.md#build-time", 1), new Link("#commands", 1));
  }

  @Test
  void anchorsAreGitHubsHeadingSlugsAndExplicitIds() {
    String page =
        """
        # SQL Server
        ## 3. Settings and secrets
        ### 2. `SET XACT_ABORT ON`: correct
        ### 6. Payments' status and gateway key, and the console
        ## Tests
        ## Tests
        <a id="why-xact_abort-on"></a>
        ```
        # not a heading
        ```
        """;

    assertThat(DocNames.anchors(page))
        .containsExactlyInAnyOrder(
            "sql-server",
            "3-settings-and-secrets",
            "2-set-xact_abort-on-correct",
            "6-payments-status-and-gateway-key-and-the-console",
            "tests",
            "tests-1",
            "why-xact_abort-on");
  }
}
