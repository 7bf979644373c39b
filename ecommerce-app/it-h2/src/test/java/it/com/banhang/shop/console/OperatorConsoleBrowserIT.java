package it.com.banhang.shop.console;

import static org.assertj.core.api.Assertions.assertThat;

import it.com.banhang.shop.Payments;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import it.com.banhang.shop.ShopDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The operator console in a real browser against the running shop: login and its refusal of a
 * customer, the two ways an unknown payment outcome ends (the gateway settles it; an operator
 * does), the audit of both, the key lookup's masking, the purge and logout. The steps build on each
 * other, so they run in order in one browser session. The screenshots also illustrate the docs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorConsoleBrowserIT {

  private static final String ADMIN = ShopApi.URL + "/admin";
  private static final String CHARGE = "payments.charge";

  private static ConsoleBrowser browser;

  /** The key whose unknown outcome the gateway settles (captured) from the console. */
  private static String capturedKey;

  /** The key too old for the gateway to answer for, settled by the operator as not charged. */
  private static String resolvedKey;

  /** The key of the 3 a.m. story: found by its order id and settled from its payment page. */
  private static String storyKey;

  @RegisterExtension
  static final TestWatcher SCREENSHOT_ON_FAILURE =
      new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
          if (browser != null) {
            try {
              browser.screenshot(
                  "failed-" + context.getDisplayName().replaceAll("\\W", "") + ".png");
            } catch (RuntimeException e) {
              cause.addSuppressed(e);
            }
          }
        }
      };

  @BeforeAll
  static void startBrowser() throws Exception {
    browser =
        ConsoleBrowser.start(Path.of(System.getProperty("screenshots.dir", "target/screenshots")));
  }

  @AfterAll
  static void stopBrowser() {
    Sandbox.noFaults();
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  @Order(1)
  void anonymousVisitorIsSentToTheLoginPage() {
    browser.open(ADMIN + "/");

    browser.waitForUrlContaining("/admin/login");
    browser.byId("login-form");
    browser.screenshot("01-login.png");
  }

  @Test
  @Order(2)
  void consoleAddressWithoutTrailingSlashLeadsToTheLoginPageToo() {
    // The address operators type: the console must not answer it with "route not found".
    browser.open(ADMIN);

    browser.waitForUrlContaining("/admin/login");
    browser.byId("login-form");
  }

  @Test
  @Order(3)
  void customerIsRefused() {
    browser.open(ADMIN + "/login");
    logIn("alice", "alice-secret");

    browser.waitForText("login-message", "Not allowed");
    assertThat(browser.driver.getCurrentUrl()).contains("/admin/login");
    browser.screenshot("01b-login-refused.png");
  }

  @Test
  @Order(4)
  void operatorLogsInToTheOverview() {
    browser.open(ADMIN + "/login");
    logIn("operator", "operator-secret");

    browser.byId("overview-operations");
    browser.waitForText("operator-name", "operator");
    assertThat(browser.driver.getCurrentUrl()).doesNotContain("/login");
    browser.screenshot("02-overview.png");
  }

  @Test
  @Order(5)
  void operatorReconcilesAPaymentTheGatewayCharged() {
    String orderId = Payments.newOrder("alice");
    capturedKey = ShopApi.newKey();
    // The gateway charges, then every answer for that key is lost: the shop cannot know.
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    try {
      assertThat(Payments.pay("alice", orderId, capturedKey, "pm_card_ok").statusCode())
          .isEqualTo(504);
    } finally {
      Sandbox.noFaults();
    }

    // Fast from here: the shop's own reconciliation (every 2 s for keys older than 60 s in this
    // suite) would otherwise settle the key before the operator does.
    showStuckOperations();
    browser.selectGridRow("stuck-grid", capturedKey);
    browser.waitForText("stuck-detail", "Detail of " + capturedKey);
    browser.waitForText("stuck-detail", "Payment");
    browser.screenshot("03-stuck.png");

    browser.click("reconcile-button");

    assertThat(browser.waitForNotification("CAPTURED")).startsWith("DONE");
    browser.waitForNoGridRow("stuck-grid", capturedKey);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
    // The customer's retry now gets the stored answer of the charge the gateway had made.
    assertThat(Payments.pay("alice", orderId, capturedKey, "pm_card_ok").statusCode())
        .isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  @Order(6)
  void operatorResolvesAPaymentTheGatewayCannotSettle() {
    String orderId = Payments.newOrder("alice");
    resolvedKey = ShopApi.newKey();
    // The request never reaches the processor: nothing charged, and the shop cannot know.
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    try {
      assertThat(Payments.pay("alice", orderId, resolvedKey, "pm_card_ok").statusCode())
          .isEqualTo(504);
    } finally {
      Sandbox.noFaults();
    }
    // Older than the gateway keeps its keys (24 h): its "no such charge" no longer proves
    // anything, so reconciliation must leave the key to an operator.
    ShopDatabase.age("alice", CHARGE, resolvedKey, Duration.ofDays(2));

    showStuckOperations();
    browser.selectGridRow("stuck-grid", resolvedKey);
    browser.waitForText("stuck-detail", "Detail of " + resolvedKey);
    browser.click("reconcile-button");
    browser.waitForNotification("NEEDS_OPERATOR");
    // Still stuck after the check: select it again (the grid was re-read).
    browser.selectGridRow("stuck-grid", resolvedKey);
    browser.waitForText("stuck-detail", "Detail of " + resolvedKey);

    browser.click("resolve-not-charged-button");
    browser.type("reason-field", "Gateway has no charge for this order (checked its dashboard).");
    browser.type("ticket-field", "INC-1001");
    browser.click("confirm-button");

    String resolved = browser.waitForNotification("DONE");
    assertThat(resolved).doesNotContain("FAILED", "REFUSED");
    browser.waitForNoGridRow("stuck-grid", resolvedKey);
    // The key was released: the customer's retry with the same key pays, exactly once.
    assertThat(Payments.pay("alice", orderId, resolvedKey, "pm_card_ok").statusCode())
        .isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  /**
   * The 3 a.m. story (docs/operations.md, "At 3 a.m."): a customer calls, charged but the order
   * says unpaid. The operator types the order id into the search box, lands on the payment, reads
   * its timeline, asks the gateway (read-only), settles the payment from its page, and the
   * customer's retry gets the stored answer: one charge.
   */
  @Test
  @Order(7)
  void threeAmStory_findByOrderId_readTheTimeline_askTheGateway_settle_retryGetsTheStoredAnswer() {
    String orderId = Payments.newOrder("alice");
    storyKey = ShopApi.newKey();
    // The gateway charges, and every answer for that key is lost: the shop cannot know.
    Sandbox.faults(
        "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    try {
      assertThat(Payments.pay("alice", orderId, storyKey, "pm_card_ok").statusCode())
          .isEqualTo(504);
    } finally {
      Sandbox.noFaults();
    }
    // The customer tries again before calling: told the outcome is being found out.
    assertThat(Payments.pay("alice", orderId, storyKey, "pm_card_ok").statusCode()).isEqualTo(409);

    browser.open(ADMIN + "/");
    browser.byId("overview-operations");
    browser.type("search-field", orderId);
    browser.click("search-go");

    browser.waitForUrlContaining("/admin/payments/");
    browser.waitForText("payment-order", orderId);
    browser.waitForText("payment-status", "PENDING");
    browser.waitForText("payment-customer", "alice");
    List<List<String>> timeline = browser.gridRows("timeline-grid");
    assertThat(timeline.get(0)).anySatisfy(cell -> assertThat(cell).contains("ATTEMPT_STARTED"));
    assertThat(timeline)
        .anySatisfy(row -> assertThat(String.join(" ", row)).contains("OUTCOME_UNKNOWN"))
        .anySatisfy(row -> assertThat(String.join(" ", row)).contains("CUSTOMER_RETRY"));
    // Nobody has asked the gateway yet: resolving by hand is not offered.
    assertThat(browser.byId("payment-resolve-not-charged-button").getDomAttribute("disabled"))
        .isNotNull();
    browser.screenshot("07-payment.png");
    browser.js("document.getElementById('timeline-grid').scrollIntoView();");
    browser.screenshot("07b-payment-timeline.png");
    browser.js("document.getElementById('payment-title').scrollIntoView();");

    browser.click("ask-gateway-button");
    browser.waitForText("gateway-finding", "CHARGED");
    assertThat(browser.byId("gateway-charge").getText()).startsWith("ch_");
    // Asking changed nothing.
    browser.waitForText("payment-status", "PENDING");
    browser.screenshot("08-ask-the-gateway.png");

    browser.click("payment-reconcile-button");
    assertThat(browser.waitForNotification("CAPTURED")).startsWith("DONE");
    browser.waitForText("payment-status", "CAPTURED");
    List<List<String>> settled = browser.gridRows("timeline-grid");
    assertThat(settled)
        .anySatisfy(row -> assertThat(String.join(" ", row)).contains("RECONCILIATION_CHECK"))
        .anySatisfy(
            row -> assertThat(String.join(" ", row)).contains("OPERATOR_ASK_GATEWAY", "operator"))
        .anySatisfy(
            row -> assertThat(String.join(" ", row)).contains("OPERATOR_RECONCILE", "operator"));
    browser.screenshot("09-payment-settled.png");

    // The customer's retry gets the stored answer of the charge the gateway had made.
    io.restassured.response.Response retry = Payments.pay("alice", orderId, storyKey, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  @Order(8)
  void auditShowsWhoDidWhat() {
    browser.open(ADMIN + "/audit");

    List<String> reconciled = browser.waitForGridRow("audit-grid", capturedKey);
    assertThat(reconciled).contains("operator", "RECONCILE");
    List<String> resolved = browser.waitForGridRow("audit-grid", resolvedKey);
    assertThat(resolved).contains("operator");
    assertThat(browser.gridRows("audit-grid"))
        .anySatisfy(row -> assertThat(row).contains("operator", "RECONCILE", resolvedKey))
        .anySatisfy(
            row -> assertThat(row).contains("operator", "RESOLVE_AS_NOT_CHARGED", resolvedKey))
        .anySatisfy(row -> assertThat(row).contains("operator", "ASK_GATEWAY", storyKey));
    browser.screenshot("04-audit.png");
  }

  @Test
  @Order(9)
  void keyLookupShowsTheStoredAnswerMasked() {
    browser.open(ADMIN + "/keys");

    browser.type("key-tenant-field", "alice");
    browser.type("key-field", capturedKey);
    browser.type("key-operation-field", CHARGE);
    browser.click("lookup-button");

    browser.waitForText("key-status", "COMPLETED");
    browser.waitForText("key-response-status", "201");
    assertThat(browser.value("key-body")).contains("\"amount\"").contains("***");
    assertThat(browser.value("key-body")).doesNotContain(Long.toString(Payments.TOTAL));
    browser.screenshot("05-keys.png");
  }

  @Test
  @Order(10)
  void retentionPurgesOnRequest() {
    browser.open(ADMIN + "/retention");
    browser.byId("ttl-grid");

    browser.click("purge-button");
    browser.click("purge-confirm-button");

    assertThat(browser.waitForNotification("purged")).startsWith("DONE");
    browser.screenshot("06-retention.png");
  }

  @Test
  @Order(11)
  void logoutEndsTheSession() {
    // The purge's notification covers the logout button until it closes.
    browser.waitForNotificationsClosed();
    browser.click("logout-button");

    browser.waitForUrlContaining("/admin/login");
    browser.byId("login-form");
    // The old session is gone: the console sends the browser back to the login page.
    browser.open(ADMIN + "/stuck");
    browser.waitForUrlContaining("/admin/login");
  }

  /** Opens the stuck operations with every age shown (the default hides the youngest keys). */
  private static void showStuckOperations() {
    browser.open(ADMIN + "/stuck");
    browser.byId("stuck-grid");
    browser.type("min-age-filter", "0");
    browser.click("search-button");
    browser.waitForVaadin();
  }

  /**
   * Fills the Vaadin login form. Its fields are light-DOM children of {@code vaadin-login-form};
   * the form disables itself while the server answers, so typing waits for it to come back.
   */
  private static void logIn(String user, String password) {
    WebElement form = browser.byId("login-form");
    browser.waitForVaadin();
    browser
        .waiting(() -> "the login form to be enabled")
        .until(d -> form.getDomAttribute("disabled") == null);
    WebElement userInput =
        browser.input(form.findElement(By.cssSelector("vaadin-text-field[name='username']")));
    WebElement passwordInput =
        browser.input(form.findElement(By.cssSelector("vaadin-password-field[name='password']")));
    userInput.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE, user);
    passwordInput.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE, password);
    // Tells an answer of the console from a reload of the page (a lost session reloads it).
    browser.js("window.consoleTestPage = true;");
    List<WebElement> submit = form.findElements(By.cssSelector("vaadin-button[slot='submit']"));
    if (submit.isEmpty()) {
      passwordInput.sendKeys(Keys.ENTER);
    } else {
      submit.get(0).click();
    }
    browser.waitForVaadin();
    assertThat(browser.js("return window.consoleTestPage === true;"))
        .as("the page after logging in as %s was reloaded: the console lost its session", user)
        .isEqualTo(Boolean.TRUE);
  }
}
