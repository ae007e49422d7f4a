import { ADMIN, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { API_EXAMPLE_PATH, ensureOwnerRulesBuilt, OWNER_RULES_APP, WHOAMI_PATH } from "@domain-auth/test-support/app-variants";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * A newcomer's first route handlers in the sample app: `currentUser` and `requireUser` of
 * `@domain-auth/core/next` in a route of the project's own. The copy of the app that has them must
 * build (`next build` once failed on such a route with MODULE_UNPARSABLE … app-router-context.js) and
 * answer for the signed-in user.
 */
describe("route handlers of the project's own that read the session", () => {
  let app: RunningApp;
  let token = "";

  beforeAll(async () => {
    ensureOwnerRulesBuilt();
    app = await startApp({ app: OWNER_RULES_APP });
    ({ token } = await setUpAdmin(app.url, ADMIN));
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
  });

  test("currentUser() in a route handler answers the signed-in user, and null signed out", async () => {
    const signedIn = await fetch(`${app.url}${WHOAMI_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ email: ADMIN.email });
    const signedOut = await fetch(`${app.url}${WHOAMI_PATH}`);
    expect(signedOut.status).toBe(200);
    expect(await signedOut.json()).toEqual({ email: null });
  });

  test("requireUser() in a route handler answers the signed-in user, and sends the signed out to sign in", async () => {
    const signedIn = await fetch(`${app.url}${API_EXAMPLE_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ email: ADMIN.email });
    const signedOut = await fetch(`${app.url}${API_EXAMPLE_PATH}`, { redirect: "manual" });
    expect([303, 307]).toContain(signedOut.status);
    expect(new URL(signedOut.headers.get("location") ?? "", app.url).pathname).toBe("/login");
  });
});
