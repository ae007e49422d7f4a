// The in-process contenders: domain-auth's handlers and Better Auth's, called with Web Requests.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAuth } from "@domain-auth/core";
import { loadDomain } from "@domain-auth/core/config";
import { createBetterAuth } from "./better-auth.mjs";

export const DOMAIN_FILE = fileURLToPath(new URL("../domain.yaml", import.meta.url));
export const SECRET = "bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
export const PASSWORD = "correct horse battery staple";
export const BCRYPT_COST = 10;

const jsonPost = (url, body) =>
  new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/**
 * A contender: `me`, `login` and `register` as operations resolving to `true` on the expected
 * answer. `login` cycles through the users `register` created (correct passwords only, so no
 * login is ever throttled).
 */
function contender({ name, handle, urls, tokenOf, registerBody, registered }) {
  const users = [];
  let nextUser = 0;
  let nextLogin = 0;
  let token;
  const prefix = `${name.replace(/\W/g, "")}-${process.pid}-${Date.now()}`;
  const operations = {
    name,
    async me() {
      const response = await handle(new Request(urls.me, { headers: { authorization: `Bearer ${token}` } }));
      await response.arrayBuffer();
      return response.status === 200;
    },
    async register() {
      const email = `${prefix}-${nextUser++}@bench.test`;
      const response = await handle(jsonPost(urls.register, registerBody(email)));
      await response.arrayBuffer();
      if (response.status !== registered) return false;
      users.push(email);
      return true;
    },
    async login() {
      const email = users[nextLogin++ % users.length];
      const response = await handle(jsonPost(urls.login, { email, password: PASSWORD }));
      await response.arrayBuffer();
      return response.status === 200;
    },
    /** Registers users until `count` exist, `concurrency` at a time. */
    async ensureUsers(count, concurrency = 10) {
      const work = async () => {
        while (users.length < count) if (!(await operations.register())) throw new Error(`${name}: register failed`);
      };
      await Promise.all(Array.from({ length: concurrency }, work));
    },
    /** Signs one user in and keeps the token for `me`. */
    async signIn() {
      await operations.ensureUsers(1, 1);
      const response = await handle(jsonPost(urls.login, { email: users[0], password: PASSWORD }));
      if (response.status !== 200) throw new Error(`${name}: sign-in answered ${response.status}`);
      token = await tokenOf(response);
    },
  };
  return operations;
}

/**
 * domain-auth on its own SQLite file in `dir` (`file`, so that two instances can share `dir`);
 * `options` go to `createAuth` (`bcryptLibrary: "bcryptjs"` for the fallback).
 */
export async function createOurs(dir, options = {}, file = "domain-auth.db") {
  const auth = await createAuth({
    domain: await loadDomain(DOMAIN_FILE),
    database: `file:${join(dir, file)}`,
    secret: SECRET,
    bcryptCost: BCRYPT_COST,
    // The in-process callers have no client address, so they share one bucket: keep the
    // per-address register limit out of the throughput figures.
    registerLimit: 1_000_000,
    ...options,
  });
  const base = "http://localhost/api/user";
  const operations = contender({
    name: "domain-auth",
    handle: auth.handle,
    urls: { me: `${base}/me`, login: `${base}/login`, register: `${base}/register` },
    tokenOf: async (response) => (await response.json()).token,
    registerBody: (email) => ({ email, password: PASSWORD }),
    registered: 201,
  });
  await operations.signIn();
  return { ...operations, auth, secret: SECRET, close: () => auth.close() };
}

/** Better Auth on its own SQLite file in `dir`. */
export async function createTheirs(dir) {
  const { auth, close } = await createBetterAuth(join(dir, "better-auth.db"), SECRET);
  const base = "http://localhost/api/auth";
  const operations = contender({
    name: "Better Auth",
    handle: auth.handler,
    urls: { me: `${base}/get-session`, login: `${base}/sign-in/email`, register: `${base}/sign-up/email` },
    tokenOf: async (response) => response.headers.get("set-auth-token"),
    registerBody: (email) => ({ email, password: PASSWORD, name: "Bench User" }),
    registered: 200,
  });
  await operations.signIn();
  return { ...operations, auth, close: async () => close() };
}
