import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ADMIN } from "@domain-auth/test-support/accounts";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_PATH } from "../../src/browser.js";
import { createNodeListener } from "../../src/index.js";
import { useInstance } from "../support/instance.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

/** A consumer's client, written against the generated types only: it must compile under `strict`. */
const CLIENT = `import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Post = components["schemas"]["Post"];

const [baseUrl = "", email = "", password = ""] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl });

const setup = await client.POST("/api/user/setup", { body: { email, password, name: "Ada" } });
if (!setup.data) throw new Error("setup failed");
const login = await client.POST("/api/user/login", { body: { email, password } });
if (!login.data) throw new Error(\`login failed: \${login.error?.code}\`);
// A user with a second factor answers a second step instead (login/mfa): this one has none.
if ("mfaRequired" in login.data) throw new Error("this account has a second factor");
// Absent only after a sign-in with \`"transport": "cookie"\`, whose tokens are cookies.
const token: string | undefined = login.data.token;
if (token === undefined) throw new Error("a sign-in without transport answers with its token");
const headers = { Authorization: \`Bearer \${token}\` };

const created = await client.POST("/api/post", { body: { title: "Typed", published: true }, headers });
const post: Post | undefined = created.data?.item;
const list = await client.GET("/api/post", { params: { query: { limit: 10, offset: 0 } }, headers });
const total: number | undefined = list.data?.total;
const read = await client.GET("/api/post/{id}", { params: { path: { id: post?.id ?? "" } } });

const tooLong = await client.POST("/api/post", { body: { title: "x".repeat(201) }, headers });
// The error body is typed: its code is one of the codes the document lists for this operation.
const code:
  | "INVALID_BODY"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "FORBIDDEN_ORIGIN"
  | "CONFLICT"
  | "UNAVAILABLE"
  | undefined =
  tooLong.error?.code;
const anonymous = await client.POST("/api/post", { body: { title: "Nobody's" } });

// An API key for a program (docs/api-keys.md): the document's second bearer scheme, narrowed to reading posts.
const issued = await client.POST("/api/user/api-keys", { body: { name: "Nightly export", scopes: ["post:read"] }, headers });
const key: string | undefined = issued.data?.key;
const withKey = { Authorization: \`Bearer \${key}\` };
const me = await client.GET("/api/user/me", { headers: withKey });
const readByKey = await client.GET("/api/post", { params: { query: { limit: 10 } }, headers: withKey });
const outsideScopes = await client.POST("/api/post", { body: { title: "Not in its scopes" }, headers: withKey });

console.log(JSON.stringify({
  user: login.data.user.email,
  created: { status: created.response.status, title: post?.title, published: post?.published, author: post?.author },
  list: { status: list.response.status, total, titles: list.data?.items.map((item) => item.title) },
  read: read.data?.item.id === post?.id,
  tooLong: { status: tooLong.response.status, code, issues: tooLong.error?.issues?.map((issue) => issue.path.join(".")) },
  anonymous: { status: anonymous.response.status, code: anonymous.error?.code },
  apiKey: {
    status: issued.response.status,
    me: me.data?.user.email,
    read: readByKey.data?.total,
    outsideScopes: { status: outsideScopes.response.status, code: outsideScopes.error?.code },
  },
}));
`;

/** Wrong calls: each line must be a type error, so the types are not merely `any`. */
const MISUSE = `import createClient from "openapi-fetch";
import type { paths } from "./api.js";

const client = createClient<paths>({ baseUrl: "http://localhost" });
await client.POST("/api/post", { body: { title: 7 } });
await client.POST("/api/post", { body: { published: true } });
await client.GET("/api/nowhere");
await client.PUT("/api/post", { body: {} });
const login = await client.POST("/api/user/login", { body: { email: "a@example.com", password: "x" } });
const code: "NOT_A_CODE" | undefined = login.error?.code;
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    skipLibCheck: true,
    outDir: "out",
    types: ["node"],
    noUncheckedIndexedAccess: true,
  },
};

describe("a typed client generated from the document (openapi-typescript + openapi-fetch)", () => {
  const instance = useInstance(createSqliteDatabase);
  let server: Server;
  let baseUrl: string;
  let dir: string;

  beforeAll(async () => {
    server = createServer(createNodeListener(instance.auth));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    dir = mkdtempSync(join(tmpdir(), "domain-auth-client-"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    mkdirSync(join(dir, "misuse"));
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("compiles with tsc, signs in, creates and lists records and reads a typed error body from the live server", async () => {
    // The document as a consumer gets it: over HTTP, with no token.
    const document = (await (await fetch(`${baseUrl}${OPENAPI_PATH}`)).json()) as OpenAPI3;
    writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(document)));
    writeFileSync(join(dir, "client.ts"), CLIENT);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, files: ["client.ts"] }));
    const compiled = await run(process.execPath, [TSC, "-p", ".", "--pretty", "false"], { cwd: dir }).catch(
      (error: { stdout: string }) => error,
    );
    expect("stdout" in compiled ? compiled.stdout : "").toBe("");

    const { stdout } = await run(process.execPath, [join(dir, "out/client.js"), baseUrl, ADMIN.email, ADMIN.password]);
    expect(JSON.parse(stdout)).toEqual({
      user: ADMIN.email,
      created: { status: 201, title: "Typed", published: true, author: expect.any(String) },
      list: { status: 200, total: 1, titles: ["Typed"] },
      read: true,
      tooLong: { status: 400, code: "INVALID_BODY", issues: ["title"] },
      anonymous: { status: 401, code: "UNAUTHENTICATED" },
      apiKey: { status: 201, me: ADMIN.email, read: 1, outsideScopes: { status: 403, code: "FORBIDDEN" } },
    });
  }, 120_000);

  it("refuses wrong calls at compile time: a wrong body, a missing required field, an unknown path or method, a code not listed", async () => {
    writeFileSync(join(dir, "misuse/client.ts"), MISUSE);
    writeFileSync(
      join(dir, "misuse/tsconfig.json"),
      JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, noEmit: true }, files: ["client.ts"] }),
    );
    const document = (await (await fetch(`${baseUrl}${OPENAPI_PATH}`)).json()) as OpenAPI3;
    writeFileSync(join(dir, "misuse/api.d.ts"), astToString(await openapiTS(document)));
    const result = await run(process.execPath, [TSC, "-p", ".", "--pretty", "false"], { cwd: join(dir, "misuse") }).then(
      () => ({ stdout: "" }),
      (error: { stdout: string }) => error,
    );
    const lines = result.stdout.split("\n").filter((line) => line.startsWith("client.ts("));
    const errorLines = new Set(lines.map((line) => Number(/^client\.ts\((\d+),/.exec(line)?.[1])));
    expect(
      [...errorLines].sort((a, b) => a - b),
      result.stdout,
    ).toEqual([5, 6, 7, 8, 10]);
  }, 120_000);
});
