import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { type GitHubUser, startGitHub, type TestGitHub } from "@domain-auth/test-support/github-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInstance, type TestInstance } from "../support/instance.js";
import { APP_URL, Browser, pathOf } from "../support/provider-flow.js";

const octocat: GitHubUser = {
  id: 583231,
  login: "octocat",
  name: "The Octocat",
  emails: [
    { email: "octo@users.noreply.example", primary: false, verified: true },
    { email: "Octocat@Example.com", primary: true, verified: true },
  ],
};

describe.each(BACKENDS)("sign-in with GitHub (OAuth 2.0 and its REST API) on $name", (backend) => {
  let github: TestGitHub;
  let database: TestDatabase;
  let instance: TestInstance;
  const reports: unknown[] = [];

  beforeAll(async () => {
    github = await startGitHub();
    database = await backend.create();
    const yaml = BLOG_YAML.replace(
      "auth:\n  type: jwt\n",
      `auth:\n  type: jwt\n  providers:\n    github: { type: github, url: "${github.url}" }\n`,
    );
    instance = await startInstance(domainOf(yaml), database.url, {
      appUrl: APP_URL,
      providers: { github: { clientId: github.clientId, clientSecret: github.clientSecret } },
      onError: (error) => reports.push(error),
    });
    await setUpAdmin(instance.api);
  });
  afterAll(async () => {
    await instance?.auth.close();
    await database?.drop();
    await github?.close();
  });

  /** Starts a flow in `browser`, lets the fake GitHub answer, and opens the callback it redirects to. */
  async function signIn(browser: Browser, change?: (callback: string) => string) {
    const started = await browser.get("/api/user/oauth/github");
    expect(started.status, started.text).toBe(302);
    const authorize = new URL(started.headers.get("location") ?? "");
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email");
    expect(authorize.searchParams.get("nonce")).toBeNull();
    const back = await fetch(authorize, { redirect: "manual" });
    const callback = pathOf(back.headers.get("location") ?? "");
    return browser.get(change ? change(callback) : callback);
  }

  it("signs up the user with their primary verified address, and signs them in again by their GitHub id", async () => {
    github.nextUser = octocat;
    const browser = new Browser(instance.api);
    const answer = await signIn(browser);
    expect({ location: answer.headers.get("location"), reports: reports.map(String) }).toEqual({ location: "/profile", reports: [] });
    const me = await browser.get("/api/user/me");
    expect(me.body.user).toMatchObject({ email: "octocat@example.com", name: "The Octocat", role: "Reader" });
    github.nextUser = { ...octocat, emails: [{ email: "moved@example.com", primary: true, verified: true }] };
    const again = new Browser(instance.api);
    await signIn(again);
    expect((await again.get("/api/user/me")).body.user.id).toBe(me.body.user.id);
  });

  it("signs nobody up whose primary address is not verified", async () => {
    github.nextUser = { id: 1, login: "newbie", emails: [{ email: "newbie@example.com", primary: true, verified: false }] };
    const browser = new Browser(instance.api);
    expect((await signIn(browser)).headers.get("location")).toBe("/login?error=EMAIL_NOT_VERIFIED");
    expect(browser.signedIn).toBe(false);
  });

  it("turns a cancel into OAUTH_DENIED and a forged code (GitHub's 200 with an error) into OAUTH_FAILED, reporting neither", async () => {
    github.nextUser = null;
    expect((await signIn(new Browser(instance.api))).headers.get("location")).toBe("/login?error=OAUTH_DENIED");
    github.nextUser = octocat;
    const forged = await signIn(new Browser(instance.api), (callback) => callback.replace(/code=[^&]+/, "code=forged"));
    expect(forged.headers.get("location")).toBe("/login?error=OAUTH_FAILED");
    expect(reports.map(String)).toEqual([]);
  });
});
