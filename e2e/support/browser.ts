import { mkdirSync } from "node:fs";
import { type RunningApp, type StartAppOptions, startApp } from "@domain-auth/test-support/app-server";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

/** Debian's Chromium; `npm test` installs it when missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const SCREENSHOTS = new URL("../screenshots/", import.meta.url);

/** How long a locator waits for its element, and a poll for its state, before the test fails. */
export const WAIT_MS = 15_000;

/** Starts headless Chromium with nothing that reaches the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Options of {@link openTab}. */
export interface TabOptions {
  /** The `User-Agent` the tab sends (a device of its own). @default Chromium's */
  readonly userAgent?: string;
}

/** A fresh tab in its own context (a browser of its own: its own cookies), at `baseURL`. */
export async function openTab(browser: Browser, baseURL: string, options: TabOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1100, height: 760 }, ...options });
  context.setDefaultTimeout(WAIT_MS);
  return context.newPage();
}

/** Saves a full-page screenshot as `e2e/screenshots/<name>.png`. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/** Collects what the browser reports about the page's Content-Security-Policy: violation events and console lines. */
export async function watchPolicy(page: Page): Promise<string[]> {
  const reports: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) reports.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("reportViolation", (report: string) => reports.push(report));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportViolation(report: string): void }).reportViolation(
        `${event.effectiveDirective}: ${event.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  return reports;
}

/** The production server of the web app and a Chromium, started for a suite and stopped after it. */
export interface ServedApp {
  readonly app: RunningApp;
  readonly browser: Browser;
}

/**
 * Starts the app (with `options`, such as extra environment variables) and Chromium side by side
 * before the suite, and stops both after it; read `app` and `browser` inside tests and hooks.
 */
export function useServedApp(options: StartAppOptions = {}): ServedApp {
  const served: { app?: RunningApp; browser?: Browser } = {};
  beforeAll(async () => {
    [served.app, served.browser] = await Promise.all([startApp(options), launchBrowser()]);
  });
  afterAll(async () => {
    await served.browser?.close();
    await served.app?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the app and the browser start before the suite's tests");
    return value;
  };
  return {
    get app() {
      return started(served.app);
    },
    get browser() {
      return started(served.browser);
    },
  };
}

/**
 * Gives the tab a platform authenticator of the DevTools protocol that holds discoverable
 * credentials and verifies its user whenever asked: the prompts of `navigator.credentials` answer
 * by themselves, as Touch ID or Windows Hello would.
 */
export async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
