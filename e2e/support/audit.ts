import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { WIDTHS } from "./status-pages.js";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = new URL("../screenshots/pages/", import.meta.url);

/** One problem axe-core found: its rule, how bad, and where. */
export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null;
  readonly targets: string[];
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now (every rule axe runs by default). */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<Result> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(" ")) }));
  });
}

/** How far the page is wider than the viewport, in pixels (0 or less: it fits). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** What {@link auditPage} found at each width: how far it overflows and what axe-core finds. */
export interface PageAudit {
  readonly width: number;
  readonly overflow: number;
  readonly violations: AxeFinding[];
}

/**
 * Looks at the page at a phone's width and a desktop's: a full-page screenshot of each under
 * `e2e/screenshots/pages/<name>-<width>.png`, how far it is wider than the viewport, and the serious
 * and critical axe-core violations. `ready` waits for what the page loads after it renders.
 */
export async function auditPage(page: Page, name: string, ready: () => Promise<unknown> = async () => {}): Promise<PageAudit[]> {
  mkdirSync(SHOTS, { recursive: true });
  const audits: PageAudit[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 820 });
    await ready();
    await page.screenshot({ path: new URL(`${name}-${width}.png`, SHOTS).pathname, fullPage: true });
    audits.push({ width, overflow: await sidewaysOverflow(page), violations: await seriousViolations(page) });
  }
  return audits;
}
