import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** Where the screenshots of the pages' looks go (one per page and width), to be looked at. */
const SHOTS = "/tmp/pages-shots";

/** A desktop and a phone. */
export const WIDTHS = [1280, 390] as const;

/** Saves the tab as `/tmp/pages-shots/<name>.png` (the whole page). */
export async function saveShot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** What the browser computed for the auth pages' frame and the page's heading: whether their stylesheet applies. */
async function frameLooks(page: Page): Promise<{ background: string; font: string; headingFont: string; overflow: boolean }> {
  return page.evaluate(() => {
    const frame = document.querySelector(".da-frame");
    const heading = document.querySelector("main h1");
    if (!frame || !heading) throw new Error("no .da-frame with a heading in its main");
    return {
      background: getComputedStyle(frame).backgroundColor,
      font: getComputedStyle(frame).fontFamily,
      headingFont: getComputedStyle(heading).fontFamily,
      overflow: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
}

/**
 * The tab shows a page that cannot be shown (404, 403) as the app's pages look: in the auth pages'
 * frame (their light background and system font), headed `heading`, with a link home, nothing wider
 * than the window.
 */
export async function expectStatusPage(page: Page, heading: string): Promise<void> {
  const main = page.getByRole("main");
  await main.getByRole("heading", { name: heading, level: 1 }).waitFor();
  expect(await main.getByRole("link", { name: "Go to the home page" }).getAttribute("href")).toBe("/");
  const looks = await frameLooks(page);
  expect(looks.background).toBe("rgb(246, 247, 249)");
  expect(looks.font).toMatch(/^system-ui/);
  expect(looks.headingFont).toBe(looks.font);
  expect(looks.overflow).toBe(false);
}
