import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openTab, useServedApp } from "./support/browser.js";
import { ADMIN, fieldErrorText } from "./support/flows.js";

/**
 * A new password's strength as the person types, on the pages that set one, told with the server's
 * own rules: a common password is called so before it is sent, and the server refuses it the same way.
 */

/** The strength the page shows under the password input, once it shows one. */
async function strengthText(page: Page): Promise<string> {
  const text = page.getByRole("main").getByText(/^Strength: /);
  await text.waitFor();
  return (await text.textContent()) ?? "";
}

describe("the password strength meter", () => {
  const served = useServedApp();

  test("on /setup: says characters, calls a common password so as it is typed, and the server refuses it alike", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/setup");
    const main = page.getByRole("main");
    const password = main.getByLabel("Password", { exact: true });
    expect(await main.getByText("At least 8 characters, and not a common password").count()).toBe(1);
    expect(await main.getByText(/bytes/).count()).toBe(0);

    await password.pressSequentially("passwor");
    expect(await strengthText(page)).toBe("Strength: weak. It must be at least 8 characters long.");
    await password.pressSequentially("d");
    expect(await strengthText(page)).toMatch(/^Strength: too common\. It is too common or too easy to guess/);
    expect(await main.getByRole("meter", { name: "Strength" }).getAttribute("value")).toBe("0");

    await main.getByLabel("Email").fill(ADMIN.email);
    await main.getByRole("button", { name: "Create administrator" }).click();
    expect(await fieldErrorText(password)).toMatch(/^Password is too common or too easy to guess .*\.$/);
    expect(new URL(page.url()).pathname).toBe("/setup");

    await password.fill("x".repeat(73));
    expect(await strengthText(page)).toContain("must be at most 72 bytes long in UTF-8");
    await password.fill(ADMIN.password);
    expect(await strengthText(page)).toBe("Strength: strong.");
    await main.getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    await page.context().close();
  });

  test("on /register: the same meter", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/register");
    const password = page.getByRole("main").getByLabel("Password", { exact: true });
    await password.fill("qwertyuiop");
    expect(await strengthText(page)).toMatch(/^Strength: too common\./);
    await password.fill("a reader's passphrase");
    expect(await strengthText(page)).toBe("Strength: strong.");
    await page.context().close();
  });
});
