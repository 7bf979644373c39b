package it.com.banhang.shop.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven through the system's chromedriver, with the few Vaadin-aware steps the
 * console test needs (fields, grids, notifications). Nothing is downloaded: Selenium Manager would
 * fetch a browser and a driver from the internet, which CI must not depend on.
 */
final class ConsoleBrowser implements AutoCloseable {

  static final String CHROMIUM = System.getProperty("chromium.binary", "/usr/bin/chromium");
  static final String CHROMEDRIVER =
      System.getProperty("chromedriver.path", "/usr/bin/chromedriver");
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  final WebDriver driver;
  private final Path screenshots;
  private final Path profile;

  private ConsoleBrowser(WebDriver driver, Path screenshots, Path profile) {
    this.driver = driver;
    this.screenshots = screenshots;
    this.profile = profile;
  }

  /**
   * A new wait per use: {@code withMessage} changes the wait it is called on, so a shared one would
   * report an earlier step's message.
   */
  WebDriverWait waiting(java.util.function.Supplier<String> message) {
    WebDriverWait wait = new WebDriverWait(driver, TIMEOUT);
    wait.withMessage(message);
    return wait;
  }

  private WebDriverWait waiting() {
    return new WebDriverWait(driver, TIMEOUT);
  }

  /**
   * Starts the browser, or fails (never skips) with what to install: a missing browser must not
   * turn the console's only end-to-end test into a silent pass.
   */
  static ConsoleBrowser start(Path screenshots) throws IOException {
    if (!Files.isExecutable(Path.of(CHROMIUM)) || !Files.isExecutable(Path.of(CHROMEDRIVER))) {
      throw new AssertionError(
          "The operator console browser test needs Chromium at "
              + CHROMIUM
              + " and chromedriver at "
              + CHROMEDRIVER
              + ": install them (Debian: apt-get install chromium chromium-driver; .ci/run does)"
              + " or point -Dchromium.binary and -Dchromedriver.path at them.");
    }
    // With the driver's path given, Selenium never asks Selenium Manager for one; offline keeps
    // Selenium Manager from downloading anything should some code path still reach it.
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
    System.setProperty("SE_OFFLINE", "true");
    Files.createDirectories(screenshots);
    Path profile = Files.createTempDirectory("console-it-chromium-");

    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build();
    return new ConsoleBrowser(new ChromeDriver(service, options), screenshots, profile);
  }

  void open(String url) {
    driver.get(url);
    waitForVaadin();
  }

  /** Waits until Vaadin's client has no request to the server in flight. */
  void waitForVaadin() {
    waiting(() -> "the console to finish talking to the server")
        .until(
            d ->
                (Boolean)
                    js(
                        "const clients = window.Vaadin && window.Vaadin.Flow"
                            + " && window.Vaadin.Flow.clients;"
                            + "if (!clients) return document.readyState === 'complete';"
                            + "return Object.values(clients).every("
                            + " c => !c.isActive || !c.isActive());"));
  }

  WebElement byId(String id) {
    return waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
  }

  void click(String id) {
    WebElement element = waiting().until(ExpectedConditions.elementToBeClickable(byId(id)));
    element.click();
  }

  /** Types into a Vaadin text, integer or password field; Tab commits it, as a user leaves it. */
  void type(String fieldId, String text) {
    WebElement input = input(byId(fieldId));
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
    input.sendKeys(text, Keys.TAB);
  }

  /** The native input (or textarea) a Vaadin field renders into its light DOM. */
  WebElement input(WebElement field) {
    return waiting()
        .until(
            d -> {
              List<WebElement> inputs = field.findElements(By.cssSelector("input, textarea"));
              return inputs.isEmpty() ? null : inputs.get(0);
            });
  }

  String value(String fieldId) {
    return input(byId(fieldId)).getDomProperty("value");
  }

  void waitForText(String id, String expected) {
    waiting(() -> "#" + id + " to contain \"" + expected + "\"")
        .until(ExpectedConditions.textToBePresentInElementLocated(By.id(id), expected));
  }

  void waitForUrlContaining(String part) {
    waiting().until(ExpectedConditions.urlContains(part));
  }

  /**
   * Waits for a notification whose text contains {@code expected}; answers its text. Notification
   * cards live in an overlay outside the view, their text in the card's light DOM.
   */
  String waitForNotification(String expected) {
    return waiting(
            () -> "a notification containing \"" + expected + "\"; shown: " + notificationTexts())
        .until(
            d ->
                notificationTexts().stream()
                    .filter(text -> text.contains(expected))
                    .findFirst()
                    .orElse(null));
  }

  /** Waits for the notifications to close: they sit over the top right corner of the page. */
  void waitForNotificationsClosed() {
    waiting(() -> "the notifications to close: " + notificationTexts())
        .until(d -> notificationTexts().isEmpty());
  }

  @SuppressWarnings("unchecked")
  List<String> notificationTexts() {
    return (List<String>)
        js(
            "return [...document.querySelectorAll('vaadin-notification-card')]"
                + ".map(c => c.textContent.trim());");
  }

  /**
   * The rows a Vaadin grid has rendered, as the text of each cell. The grid keeps its rows in its
   * shadow DOM and slots each cell's content in from the light DOM, so the row a content belongs to
   * is found through its slot.
   */
  @SuppressWarnings("unchecked")
  List<List<String>> gridRows(String gridId) {
    return (List<List<String>>)
        js(
            "const grid = document.getElementById(arguments[0]);"
                + "if (!grid || !grid.shadowRoot) return [];"
                + "return [...grid.shadowRoot.querySelectorAll('tbody#items tr')]"
                + ".filter(tr => !tr.hidden && !tr.hasAttribute('loading'))"
                + ".map(tr => [...tr.querySelectorAll('td slot')]"
                + "  .map(s => s.assignedElements()[0])"
                + "  .map(c => c ? c.textContent.trim() : ''));",
            gridId);
  }

  Optional<List<String>> gridRow(String gridId, String cellText) {
    return gridRows(gridId).stream().filter(row -> row.contains(cellText)).findFirst();
  }

  List<String> waitForGridRow(String gridId, String cellText) {
    return waiting(() -> "a row with \"" + cellText + "\" in #" + gridId + ": " + gridRows(gridId))
        .until(d -> gridRow(gridId, cellText).orElse(null));
  }

  void waitForNoGridRow(String gridId, String cellText) {
    waitForVaadin();
    waiting(() -> "no row with \"" + cellText + "\" in #" + gridId)
        .until(d -> gridRow(gridId, cellText).isEmpty());
  }

  /**
   * Selects the row of a multi-select grid that shows {@code cellText}: a click on its checkbox, as
   * in a multi-select grid a click on the row's text selects nothing.
   */
  void selectGridRow(String gridId, String cellText) {
    waitForGridRow(gridId, cellText);
    WebElement checkbox =
        waiting()
            .until(
                d ->
                    (WebElement)
                        js(
                            "const grid = document.getElementById(arguments[0]);"
                                + "for (const tr of grid.shadowRoot.querySelectorAll('tbody#items tr')) {"
                                + "  const cells = [...tr.querySelectorAll('td slot')]"
                                + "    .map(s => s.assignedElements()[0]).filter(c => c);"
                                + "  if (cells.some(c => c.textContent.trim() === arguments[1])) {"
                                + "    return cells[0].querySelector('vaadin-checkbox') || cells[0];"
                                + "  }"
                                + "}"
                                + "return null;",
                            gridId,
                            cellText));
    Objects.requireNonNull(checkbox).click();
    waitForVaadin();
  }

  /** Saves what the window shows now as {@code name} under the screenshot directory. */
  Path screenshot(String name) {
    waitForVaadin();
    try {
      File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
      Path target = screenshots.resolve(name);
      Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Object js(String script, Object... arguments) {
    return ((JavascriptExecutor) driver).executeScript(script, arguments);
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      deleteQuietly(profile);
    }
  }

  private static void deleteQuietly(Path directory) {
    try (var paths = Files.walk(directory)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // A profile left in the temp directory harms nothing.
    }
  }
}
