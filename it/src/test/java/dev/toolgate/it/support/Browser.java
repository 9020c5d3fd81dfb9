package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalStack;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One headless Chromium driven through Selenium, as a person uses the console: Debian's chromium and its
 * chromedriver (installed by the build when missing, src/test/debian/ensure-packages.sh), never a browser
 * Selenium Manager would download. Each instance has a profile of its own, so two browsers are two people
 * with separate sessions. No implicit waits: a test waits for what it expects, by name, with {@link #waitFor}.
 */
public final class Browser implements AutoCloseable {

    private static final java.util.concurrent.atomic.AtomicInteger TIMEOUTS = new java.util.concurrent.atomic.AtomicInteger();

    /** A page that waits on a freshly started Keycloak or a gateway's first request, on 2 loaded cores. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * How often a wait looks again. Selenium's default, 500 ms, made every wait for a page that was not there at the
     * first look cost up to half a second more than the page took: the console suites wait some 40 times.
     */
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    static {
        // with explicit binary and driver Selenium Manager is not run at all; if it ever were, it must not go online
        System.setProperty("SE_OFFLINE", "true");
    }

    private final Path profile;
    private final ChromeDriver driver;

    public Browser() {
        Path chromium = installed("toolgate.chromium", "/usr/bin/chromium");
        Path chromedriver = installed("toolgate.chromedriver", "/usr/bin/chromedriver");
        try {
            profile = Files.createTempDirectory("toolgate-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions().setBinary(chromium.toFile()).addArguments(
                "--headless=new", "--no-sandbox", // no sandbox: the tests run as root on CI
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                // Chromium's calls home fail here and only add noise and time
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--lang=en-US", "--window-size=1280,900", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile()).usingAnyFreePort().build();
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            deleteProfile();
            throw e;
        }
        driver.manage().timeouts().implicitlyWait(Duration.ZERO);
        driver.manage().window().setSize(new Dimension(1280, 900));
    }

    public WebDriver driver() {
        return driver;
    }

    public Browser open(String url) {
        driver.get(url);
        return this;
    }

    public String currentUrl() {
        return driver.getCurrentUrl();
    }

    /** Signs in on Keycloak's login page, which the browser is on or is being sent to. */
    public Browser signIn(String user, String password) {
        waitFor(By.id("password"));
        // asked again within a live identity-provider session, Keycloak shows the user's name, not a field for it
        for (WebElement name : driver.findElements(By.id("username"))) {
            name.clear();
            name.sendKeys(user);
        }
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.id("kc-login")).click();
        return this;
    }

    /** The element, once it is visible. */
    public WebElement waitFor(By element) {
        return until(ExpectedConditions.visibilityOfElementLocated(element));
    }

    public void waitForTitle(String title) {
        until(ExpectedConditions.titleIs(title));
    }

    /** The URL, once the browser has arrived at one starting with {@code prefix} (redirects take a while). */
    public String waitForUrlStartingWith(String prefix) {
        until(page -> page.getCurrentUrl().startsWith(prefix));
        return driver.getCurrentUrl();
    }

    /**
     * Waits for {@code condition}; on a timeout the page it stopped on is kept (target/screenshots/timeout-N.png and .html)
     * and named in the failure, since "element not found" alone never says where the browser was.
     */
    public <T> T until(ExpectedCondition<T> condition) {
        try {
            return new WebDriverWait(driver, WAIT, POLL).until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            String name = "timeout-" + TIMEOUTS.incrementAndGet();
            try {
                screenshot(name);
                Files.writeString(SCREENSHOTS.resolve(name + ".html"), driver.getPageSource());
            } catch (RuntimeException | IOException ignored) {
                // the failure below is the news; a page that cannot be kept must not hide it
            }
            throw new org.openqa.selenium.TimeoutException("at " + driver.getCurrentUrl() + " (kept as " + name + "): " + e.getMessage(), e);
        }
    }

    /** The page as it looks now, in target/screenshots/{@code name}.png. */
    public Path screenshot(String name) {
        try {
            Path file = Files.createDirectories(SCREENSHOTS).resolve(name + ".png");
            return Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit(); // waits for chromium to exit, so nothing writes to the profile any more
        } finally {
            deleteProfile();
        }
    }

    private void deleteProfile() {
        try {
            LocalStack.deleteRecursively(profile);
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the browser profile " + profile, e);
        }
    }

    /** The file the property names, else the Debian default; missing fails, never skips, a console suite. */
    private static Path installed(String property, String debianDefault) {
        Path file = Path.of(System.getProperty(property, debianDefault));
        if (!Files.isExecutable(file)) {
            throw new IllegalStateException("no " + file + " (-D" + property + "): the console suites need Debian's "
                    + "chromium and chromium-driver; the build installs them unless -Dbrowser.install.skip=true, "
                    + "or as root: apt-get install -y --no-install-recommends chromium chromium-driver");
        }
        return file;
    }
}
