import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { loadDomain } from "@domain-auth/core/config";
import { ADMIN, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { ensureOwnerRulesBuilt, OWNER_RULES_APP } from "@domain-auth/test-support/app-variants";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/** The owner-rules app with a routes manifest of a version the server does not know: every request goes to Next.js. */
const UNKNOWN_MANIFEST_APP = `${OWNER_RULES_APP}-unknown-manifest`;
const SECRET = "a-test-secret-that-is-long-enough-for-hs256";

interface Answer {
  readonly status: number;
  /** The `X-Owner` header the project's own proxy, route and rewrite target set. */
  readonly owner: string | null;
  readonly body: string;
}

/** Sends `path` as the request line's target, byte for byte (fetch and curl without --path-as-is normalize it). */
function sendAsIs(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path, method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => {
        const owner = response.headers["x-owner"];
        resolve({ status: response.statusCode ?? 0, owner: typeof owner === "string" ? owner : null, body: text });
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** Spellings of `/api/<name>` that a decoder, a URL parser or a case-insensitive match could turn into it. */
function spellings(name: string): string[] {
  const [first = "", ...rest] = name.split("/");
  const last = rest.at(-1) ?? first;
  const encodedFirstLetter = `%${first.charCodeAt(0).toString(16)}${first.slice(1)}`;
  return [
    `/api/${name}`,
    `/api/%zz/../${name}`,
    `/api/%C0/../${name}`,
    `/api/%zz/%2e%2e/${name}`,
    `/api/%zz\\..\\${name}`,
    `/api/x/../${name}`,
    `/api/./${name}`,
    `/api/%2e/${name}`,
    `/api//${name}`,
    `/api/${name}/`,
    `/api/${name}/%zz/..`,
    `/api/${name}/.`,
    `/api/${[encodedFirstLetter, ...rest].join("/")}`,
    `/api/${name.replace(last, `${last.slice(0, 1)}%${last.charCodeAt(1).toString(16).toUpperCase()}${last.slice(2)}`)}`,
    `/api/${name}%2f`,
    `/api/${name}%2F`,
    `/api/%252e%252e/${name}`,
    `/api/${name};x`,
    `/api/${name};/`,
    `/api/${name.toUpperCase()}`,
    `/API/${name}`,
    `//api/${name}`,
    `/api/${name}.json`,
    `/api/${name}.rsc`,
  ];
}

/**
 * A refusal that runs no handler of the core: Next.js's trailing-slash redirect, a broken path, nothing
 * there, or a method the path's route does not have (`/api/user/r%65gister` names a user record).
 */
const NEUTRAL = new Set([308, 400, 404, 405]);

describe.each([
  { name: "the server's direct path", app: OWNER_RULES_APP },
  { name: "Next.js's route handler (manifests the server does not know)", app: UNKNOWN_MANIFEST_APP },
])("no path trick reaches the core around the project's own proxy, route or rewrite, through $name", ({ app: folder }) => {
  let app: RunningApp;
  let token = "";
  let postId = "";

  /** The posts as the core holds them, read in process from the server's database (the proxy closes /api/post). */
  async function posts(): Promise<{ total: number; items: { id: string; title: string }[] }> {
    const auth = await createAuth({
      domain: await loadDomain(join(app.dir, "domain.yaml")),
      database: `file:${join(app.dir, "app.db")}`,
      secret: SECRET,
      bcryptCost: 4,
    });
    try {
      const response = await auth.handle(new Request("http://localhost/api/post", { headers: { authorization: `Bearer ${token}` } }));
      return (await response.json()) as { total: number; items: { id: string; title: string }[] };
    } finally {
      await auth.close();
    }
  }

  beforeAll(async () => {
    ensureOwnerRulesBuilt();
    if (folder === UNKNOWN_MANIFEST_APP) {
      rmSync(UNKNOWN_MANIFEST_APP, { recursive: true, force: true });
      cpSync(OWNER_RULES_APP, UNKNOWN_MANIFEST_APP, { recursive: true });
      const manifest = join(UNKNOWN_MANIFEST_APP, ".next/routes-manifest.json");
      writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, "utf8")), version: 99 }));
    }
    app = await startApp({ app: folder, env: { AUTH_SECRET: SECRET } });
    ({ token } = await setUpAdmin(app.url, ADMIN));
    const auth = await createAuth({
      domain: await loadDomain(join(app.dir, "domain.yaml")),
      database: `file:${join(app.dir, "app.db")}`,
      secret: SECRET,
      bcryptCost: 4,
    });
    const created = await auth.handle(
      new Request("http://localhost/api/post", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Kept" }),
      }),
    );
    postId = ((await created.json()) as { item: { id: string } }).item.id;
    await auth.close();
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
  });

  test("the control: a plain path nothing claims is the core's, a closed one the proxy's", async () => {
    const headers = { authorization: `Bearer ${token}` };
    expect((await sendAsIs(app.url, "GET", "/api/user/me", headers)).status).toBe(200);
    expect(await sendAsIs(app.url, "GET", "/api/post", headers)).toMatchObject({ status: 403, owner: "proxy" });
    expect(await sendAsIs(app.url, "GET", `/api/post/${postId}`, headers)).toMatchObject({ status: 403, owner: "proxy" });
  });

  test("the collection and an item the proxy closes: every method, every spelling", async () => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const body = JSON.stringify({ title: "Smuggled" });
    const paths = [...spellings("post"), ...spellings(`post/${postId}`)];
    const refused: string[] = [];
    for (const path of paths) {
      for (const method of ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS", "PROPFIND"]) {
        const answer = await sendAsIs(app.url, method, path, headers, method === "POST" || method === "PATCH" ? body : undefined);
        if (answer.owner !== "proxy" && !NEUTRAL.has(answer.status)) refused.push(`${method} ${path} → ${answer.status} ${answer.body}`);
      }
    }
    expect(refused).toEqual([]);
    expect(await posts()).toMatchObject({ total: 1, items: [{ id: postId, title: "Kept" }] });
  });

  test("the project's own route: register is never the core's", async () => {
    const answers: string[] = [];
    for (const [index, path] of spellings("user/register").entries()) {
      const body = JSON.stringify({ email: `visitor${index}@example.com`, password: "correct horse battery" });
      const answer = await sendAsIs(app.url, "POST", path, { "content-type": "application/json" }, body);
      if (answer.owner !== "route" && !NEUTRAL.has(answer.status)) answers.push(`POST ${path} → ${answer.status} ${answer.body}`);
    }
    expect(answers).toEqual([]);
    const users = await sendAsIs(app.url, "GET", "/api/user", { authorization: `Bearer ${token}` });
    expect(JSON.parse(users.body)).toMatchObject({ total: 1 });
  });

  test("the project's rewrite: login is never the core's, and no answer carries a token", async () => {
    const body = JSON.stringify({ email: ADMIN.email, password: ADMIN.password });
    const answers: string[] = [];
    for (const path of spellings("user/login")) {
      const answer = await sendAsIs(app.url, "POST", path, { "content-type": "application/json" }, body);
      if ((answer.owner !== "rewrite" && !NEUTRAL.has(answer.status)) || answer.body.includes("token")) {
        answers.push(`POST ${path} → ${answer.status} ${answer.body}`);
      }
    }
    expect(answers).toEqual([]);
  });

  test("no method on a build asset reaches a 500: 405 with Allow: GET, HEAD", async () => {
    const home = await (await fetch(`${app.url}/`)).text();
    const asset = /\/_next\/static\/[^"]+\.js/.exec(home)?.[0];
    expect(asset).toBeDefined();
    expect((await sendAsIs(app.url, "GET", asset as string, {})).status).toBe(200);
    for (const method of ["OPTIONS", "POST", "PUT", "DELETE", "PATCH", "TRACE"]) {
      const answer = await sendAsIs(app.url, method, asset as string, {});
      expect({ method, status: answer.status }).toEqual({ method, status: 405 });
    }
    const allow = await new Promise<string | undefined>((resolve, reject) => {
      const { hostname, port } = new URL(app.url);
      request({ host: hostname, port, path: asset, method: "DELETE" }, (response) => {
        response.resume();
        resolve(response.headers.allow);
      })
        .on("error", reject)
        .end();
    });
    expect(allow).toBe("GET, HEAD");
  });
});
