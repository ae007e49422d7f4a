import { randomUUID } from "node:crypto";
import { ADMIN, addUser, type SignedIn, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { call } from "@domain-auth/test-support/http-client";
import { findLeaks } from "@domain-auth/test-support/leaks";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { pool, portOf, rawRequest, rssKiB, safetyProblems } from "./support/http.js";

/**
 * Property-based fuzzing of every auth and entity endpoint of the production server (blog example,
 * SQLite). Batches of generated requests run concurrently; every answer must be safe (no 5xx, no stack
 * trace, the API's error body (docs/api.md#errors-in-the-order-they-are-checked), no hash or password key) and the server must stay up with a
 * bounded memory footprint.
 */

const BATCHES = Number(process.env.HARDENING_FUZZ_BATCHES ?? 300);
const BATCH_SIZE = 10;
const RAW_RUNS = Number(process.env.HARDENING_RAW_RUNS ?? 150);
/** PostgreSQL gets fewer (its own text rules, such as no U+0000, are what it adds). */
const RUNS = {
  sqlite: { batches: BATCHES, rawRuns: RAW_RUNS },
  postgres: { batches: Math.ceil(BATCHES / 2), rawRuns: Math.ceil(RAW_RUNS / 3) },
} as const;
const SEED = Number(process.env.HARDENING_SEED ?? 20_261_122);

const FIGURES = { requests: 0, raw: 0, fiveXx: 0, leaks: 0, problems: 0, rssGrowthMiB: 0 };
let figures = { ...FIGURES };

let app: RunningApp;
let admin: SignedIn;
let editor: SignedIn;
let reader: SignedIn;
let postId: string;

/**
 * The server's old space is capped, so V8 collects instead of growing lazily: memory a request leaves
 * behind then shows as RSS that keeps climbing (and in the end an out-of-memory crash), not as slack.
 */
const NODE_OPTIONS = process.env.HARDENING_NODE_OPTIONS ?? "--max-old-space-size=96";
/** After warm-up, RSS may move by this much at most. */
const RSS_SLACK_KIB = 32 * 1024;

// ---------------------------------------------------------------- generators

const CONFUSABLE_EMAILS = [
  "ＡＤＭＩＮ@ＥＸＡＭＰＬＥ.ＣＯＭ",
  "admin@exаmple.com", // Cyrillic а
  " Admin@Example.com ",
  "admin@example.com\u0000",
  "admin\u200b@example.com",
  "admin@example.com\u202e",
  "\ufb01le@example.com", // ﬁ ligature
  "İnfo@example.com",
  "stra\u00dfe@example.com",
  "e\u0301@example.com",
  "\ud800@example.com",
  "a@b@example.com",
  "@example.com",
  "a@example",
  "a b@example.com",
  `${"x".repeat(250)}@example.com`,
  "admin@example.com\r\nBcc: x@example.com",
];

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000",
  "password\u0000suffix",
  "x".repeat(73),
  "é".repeat(40),
  "😀".repeat(19),
  "x".repeat(20_000),
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, sent as it is
  "${jndi:ldap://127.0.0.1/a}",
  "{{7*7}}",
  "../../../../etc/passwd",
  "%00",
  "\\u0000",
  "Admin",
  "Editor",
  "Reader",
  "admin",
  "constructor",
  "__proto__",
  "toString",
  "$2b$10$abcdefghijklmnopqrstuv",
  "2024-01-01T00:00:00Z",
  "not-a-date",
  "00000000-0000-0000-0000-000000000000",
];

const KEYS = [
  "email",
  "password",
  "name",
  "role",
  "id",
  "passwordHash",
  "password_hash",
  "tokenVersion",
  "createdAt",
  "updatedAt",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "title",
  "body",
  "published",
  "author",
  "ownerId",
  "currentPassword",
  "mfaToken",
  "code",
  "recoveryCode",
  "passkey",
  "response",
  "transport",
  "isAdmin",
  "Email",
  "email\u0000",
  "",
];

const stringArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS, ...CONFUSABLE_EMAILS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
);

const keyArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

const { value: valueArb } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    stringArb,
    fc.integer(),
    fc.constantFrom(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1e-320),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(keyArb, tie("value")), { maxLength: 4 }).map((entries) => ({ entries })),
  ),
}));

/** JSON text of a value, objects written key by key so duplicate and `__proto__` keys survive. */
function toJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value !== null && typeof value === "object" && "entries" in value) {
    const entries = (value as { entries: [string, unknown][] }).entries;
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const objectText = fc.array(fc.tuple(keyArb, valueArb), { maxLength: 8 }).map((entries) => toJson({ entries }));

/** A plausible account body with one or more hostile additions. */
const accountText = fc
  .record({
    email: fc.oneof(fc.constantFrom(...CONFUSABLE_EMAILS, ADMIN.email, "new@example.com"), fc.emailAddress()),
    password: fc.oneof(fc.constantFrom("long enough password", ADMIN.password, "short", "x".repeat(72), "x".repeat(73)), stringArb),
    extra: fc.array(fc.tuple(keyArb, valueArb), { maxLength: 3 }),
  })
  .map(({ email, password, extra }) => toJson({ entries: [["email", email], ["password", password], ...extra] }));

const rawText = fc.oneof(
  objectText.chain((text) => fc.nat(Math.max(0, text.length - 1)).map((cut) => text.slice(0, cut))), // truncated
  fc.integer({ min: 1, max: 15_000 }).map((depth) => "[".repeat(depth)),
  fc.integer({ min: 1, max: 3_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.integer({ min: 16 * 1024 - 20, max: 40_000 }).map((size) => `{"name":"${"x".repeat(size)}"}`),
  fc.constantFrom("", "null", "[]", "1", '"x"', "true", "{", "}", "{}}", '{"a":1,}', "{'a':1}", "\ufeff{}", "NaN", '{"a":1e999999}'),
  fc.string({ maxLength: 200 }),
);

type BodySpec = { kind: "none" } | { kind: "text"; text: string } | { kind: "bytes"; bytes: Uint8Array };

const bodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 4, arbitrary: objectText.map((text) => ({ kind: "text" as const, text })) },
  { weight: 4, arbitrary: accountText.map((text) => ({ kind: "text" as const, text })) },
  { weight: 3, arbitrary: rawText.map((text) => ({ kind: "text" as const, text })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: "bytes" as const, bytes })) },
);

const contentTypeArb = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/merge-patch+json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "json",
  "",
  undefined,
);

/** Authorization values, resolved against the live tokens when the request is sent. */
const authorizationArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom("admin", "editor", "reader").map((who) => ({ who, scheme: "Bearer" })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("admin", "reader")
      .chain((who) =>
        fc.constantFrom("bearer", "BEARER", "Bearer ", "bEaReR", "Basic", "Token", "Bearer\t").map((scheme) => ({ who, scheme })),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom(
        "Bearer",
        "Bearer ",
        "Bearer null",
        "Bearer undefined",
        "Bearer a.b.c",
        "Bearer ..",
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
        "Basic YWRtaW5AZXhhbXBsZS5jb206Y29ycmVjdCBob3JzZSBiYXR0ZXJ5",
        "Bearer a, Bearer b",
        `Bearer ${"a".repeat(9_000)}`,
        `Bearer ${"a.".repeat(2_000)}`,
        "Bearer \u00ff\u00fe",
        "Digest username=admin",
      ),
      fc.string({ unit: fc.constantFrom(..."abcXYZ019.-_=+/ \t".split("")), maxLength: 120 }).map((text) => `Bearer ${text}`),
    ),
  },
);

const METHODS = [
  "GET",
  "GET",
  "POST",
  "POST",
  "POST",
  "PATCH",
  "PATCH",
  "DELETE",
  "PUT",
  "HEAD",
  "OPTIONS",
  "patch",
  "PROPFIND",
  "X-WEIRD",
];

/** A path template: `{user}` and `{post}` become live ids when the request is sent. */
const pathArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "/api/user/login",
      "/api/user/login",
      "/api/user/register",
      "/api/user/register",
      "/api/user/me",
      "/api/user/setup",
      "/api/user",
      "/api/post",
      "/api/user/{user}",
      "/api/user/{self}",
      "/api/post/{post}",
      "/api/post/{random}",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "/api/user/login/mfa",
      "/api/user/login/passkey/options",
      "/api/user/login/passkey",
      "/api/user/passkeys/options",
      "/api/user/passkeys",
      "/api/user/passkeys/{random}",
      "/api/user/mfa/totp",
      "/api/user/mfa/totp/confirm",
      "/api/user/mfa/recovery-codes",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "/api",
      "/api/",
      "/api//user",
      "/api/user/login/",
      "/api/USER/LOGIN",
      "/api/user/login/extra",
      "/api/__proto__",
      "/api/constructor",
      "/api/user/__proto__",
      "/api/post/constructor",
      "/api/post/hasOwnProperty",
      "/api/%E0%A4%A",
      "/api/post/%",
      "/api/post/%00",
      "/api/user/..%2F..%2Fpost",
      "/api/post/../user",
      `/api/post/${"a".repeat(5_000)}`,
      "/api/post?limit=1e2&offset=-1",
      "/api/post?limit=100&limit=1",
      "/api/user?offset=99999999999999999999",
      "/api/post?__proto__[limit]=1&constructor[prototype][x]=1",
      "/api/post?limit=%ff",
      "/api/post?limit=0x10",
      "/api/user/setup?x=%E0%A4%A",
      "/api/user/me%00",
      "/api/user/login;jsessionid=1",
      "/api/post/%2e%2e",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("/api/user/", "/api/post/", "/api/"), fc.webSegment(), fc.option(fc.webQueryParameters(), { nil: undefined }))
      .map(([prefix, segment, query]) => `${prefix}${segment}${query ? `?${query}` : ""}`),
  },
);

const extraHeadersArb = fc.constantFrom<Record<string, string>>(
  {},
  {},
  { "x-forwarded-for": "6.6.6.6" },
  { "x-domain-auth-peer": "6.6.6.6" },
  { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" },
  { "x-http-method-override": "DELETE" },
  { "x-nextjs-data": "1" },
  { rsc: "1", "next-router-state-tree": "%5B%22%22%5D" },
  { accept: "text/html" },
  { "accept-encoding": "gzip, br" },
  { origin: "http://127.0.0.1:1" },
);

const requestArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: pathArb,
  authorization: authorizationArb,
  contentType: contentTypeArb,
  body: bodyArb,
  headers: extraHeadersArb,
});

type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function resolvePath(template: string): string {
  return template.replace("{user}", reader.id).replace("{self}", admin.id).replace("{post}", postId).replace("{random}", randomUUID());
}

function resolveAuthorization(value: FuzzRequest["authorization"]): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  const token = { admin, editor, reader }[value.who as "admin" | "editor" | "reader"].token;
  return `${value.scheme} ${token}`;
}

async function send(request: FuzzRequest): Promise<string[]> {
  const headers: Record<string, string> = { ...request.headers };
  const authorization = resolveAuthorization(request.authorization);
  if (authorization !== undefined) headers.authorization = authorization;
  if (request.contentType !== undefined) headers["content-type"] = request.contentType;
  const canHaveBody = !["GET", "HEAD"].includes(request.method.toUpperCase());
  const body =
    !canHaveBody || request.body.kind === "none" ? undefined : request.body.kind === "text" ? request.body.text : request.body.bytes;
  const answer = await call(app.url, {
    method: request.method,
    path: resolvePath(request.path),
    headers,
    ...(body === undefined ? {} : { body }),
  }).catch((error: unknown) => {
    throw new Error(
      `${request.method} ${request.path} ${JSON.stringify(headers).slice(0, 300)} ${String(body).slice(0, 100)}: ${(error as Error).cause ?? error}`,
    );
  });
  figures.requests++;
  if (answer.status >= 500) figures.fiveXx++;
  const problems = safetyProblems(answer, { head: request.method === "HEAD" });
  if (findLeaks(answer).length > 0) figures.leaks++;
  if (problems.length > 0) {
    figures.problems++;
    return [`${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 200)}: ${problems.join("; ")}`];
  }
  return [];
}

// ---------------------------------------------------------------- properties

describe.each(BACKENDS)("fuzzing the production server on $name", (backend) => {
  const { name } = backend;
  const { batches: numBatches, rawRuns } = RUNS[name];
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    figures = { ...FIGURES };
    database = await backend.create();
    app = await startApp({ env: { NODE_OPTIONS, DATABASE_URL: database.url } });
    admin = await setUpAdmin(app.url);
    editor = await addUser(app.url, admin, { email: "editor@example.com", password: "editor password 1", role: "Editor" });
    reader = await addUser(app.url, admin, { email: "reader@example.com", password: "reader password 1" });
    const created = await call(app.url, { path: "/api/post", body: { title: "First post", body: "Hello" }, token: editor.token });
    expect(created.status).toBe(201);
    postId = (created.body as { item: { id: string } }).item.id;
  });

  afterAll(async () => {
    printFigures(`fuzz.test.ts (${name})`, {
      "requests fuzzed": figures.requests + figures.raw,
      "(of which raw socket)": figures.raw,
      "5xx seen": figures.fiveXx,
      leaks: figures.leaks,
      "unsafe answers": figures.problems,
      "RSS growth after warm-up (MiB)": figures.rssGrowthMiB,
    });
    await app?.stop();
    await database?.drop();
  });

  test("every generated request gets a safe answer, and memory stays bounded", async () => {
    const samples: number[] = [];
    let batches = 0;
    const found: string[] = [];
    const details = await fc.check(
      fc.asyncProperty(fc.array(requestArb, { minLength: BATCH_SIZE, maxLength: BATCH_SIZE }), async (batch) => {
        const problems = (
          await pool(
            BATCH_SIZE,
            batch.map((request) => () => send(request)),
          )
        ).flat();
        if (++batches % 25 === 0) samples.push(rssKiB(app.pid));
        found.push(...problems);
        return problems.length === 0;
      }),
      { numRuns: numBatches, seed: SEED, endOnFailure: true },
    );
    expect(found, `unsafe answers (seed ${SEED})`).toEqual([]);
    if (details.failed) throw details.errorInstance;

    // Alive and answering, and setup is still complete.
    expect(() => process.kill(app.pid, 0)).not.toThrow();
    const status = await call(app.url, { path: "/api/user/setup" });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ setupRequired: false });
    expect((await call(app.url, { path: "/api/post" })).status).toBe(200);

    // Memory: after the first samples (warm-up: JIT, caches), the footprint must level off.
    const warm = samples[1] ?? 0;
    console.log(
      `[hardening] fuzz.test.ts (${name}): server RSS (MiB) every ${25 * BATCH_SIZE} requests: ${samples.map((kib) => Math.round(kib / 1024)).join(", ")}`,
    );
    figures.rssGrowthMiB = Math.round(((samples.at(-1) ?? warm) - warm) / 1024);
    for (const sample of samples.slice(2)) expect(sample).toBeLessThan(warm + RSS_SLACK_KIB);
  });

  test("raw requests (chunked, lying lengths, bad header bytes, huge headers) get safe answers", async () => {
    const port = portOf(app.url);
    const head = (method: string, path: string, headers: string[]) =>
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers.map((line) => `${line}\r\n`).join("")}\r\n`;
    const chunked = (text: string, sizes: number[]) => {
      const parts: string[] = [];
      let rest = Buffer.from(text);
      for (const size of sizes) {
        if (rest.length === 0) break;
        const piece = rest.subarray(0, Math.max(1, size));
        rest = rest.subarray(piece.length);
        parts.push(`${piece.length.toString(16)}\r\n${piece.toString("latin1")}\r\n`);
      }
      if (rest.length > 0) parts.push(`${rest.length.toString(16)}\r\n${rest.toString("latin1")}\r\n`);
      parts.push("0\r\n\r\n");
      return parts;
    };
    const path = fc.constantFrom("/api/user/login", "/api/user/register", "/api/user/setup", "/api/post", `/api/user/me`);
    const rawArb = fc.oneof(
      // A chunked body in random pieces, sometimes well over 16 KiB in total.
      fc
        .tuple(
          path,
          fc.oneof(accountText, objectText, rawText),
          fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 12 }),
        )
        .map(([target, text, sizes]) => [
          head("POST", target, ["Content-Type: application/json", "Transfer-Encoding: chunked"]),
          ...chunked(text, sizes),
        ]),
      // A declared length smaller than the body, or over the limit with a short body.
      fc
        .tuple(path, accountText, fc.constantFrom(0, 1, 5, 17_000, 1e12))
        .map(([target, text, length]) => [
          head("POST", target, ["Content-Type: application/json", `Content-Length: ${length}`]),
          length > text.length ? "" : text,
        ]),
      // Bytes that are not allowed in header values, duplicated framing headers, huge headers.
      fc
        .tuple(
          path,
          fc.constantFrom(
            "Authorization: Bearer a\u0000b",
            "Authorization: Bearer \u00ff\u00fe",
            "Authorization: Bearer a\u007fb",
            "Content-Length: 1\r\nContent-Length: 2",
            "Transfer-Encoding: chunked\r\nContent-Length: 3",
            "Transfer-Encoding: gzip, chunked",
            "Transfer-Encoding: identity",
            `X-Long: ${"a".repeat(20_000)}`,
            `Authorization: Bearer ${"a".repeat(100_000)}`,
            "Bad Header: 1",
            " Leading: space",
            "X-Domain-Auth-Peer: 6.6.6.6\r\nX-Domain-Auth-Peer: 7.7.7.7",
            "Content-Type: application/json\u0000",
          ),
        )
        .map(([target, line]) => [head("GET", target, [line])]),
      // Request lines Node.js cannot parse.
      fc.constantFrom(
        ["GARBAGE\r\n\r\n"],
        ["GET /api/user/setup HTTP/9.9\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
        ["GET  /api/user/setup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
        ["GET /api/user/setup\u0000 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
        [`GET /api/${"a".repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`],
        [head("POST", "/api/user/login", ["Content-Type: application/json", "Transfer-Encoding: chunked"]), "zz\r\n{}\r\n0\r\n\r\n"],
      ),
    );
    const found: string[] = [];
    const details = await fc.check(
      fc.asyncProperty(rawArb, async (parts) => {
        const answer = await rawRequest(
          port,
          parts.map((part) => Buffer.from(part, "latin1")),
        );
        figures.raw++;
        if (answer.status >= 500) figures.fiveXx++;
        const problems = safetyProblems(answer);
        if (findLeaks(answer).length > 0) figures.leaks++;
        if (problems.length === 0) return true;
        figures.problems++;
        found.push(
          `${JSON.stringify(parts[0]?.slice(0, 200))} → ${answer.head.split("\r\n")[0]} ${answer.text.slice(0, 200)}: ${problems.join("; ")}`,
        );
        return false;
      }),
      { numRuns: rawRuns, seed: SEED, endOnFailure: true },
    );
    expect(found, `unsafe answers (seed ${SEED})`).toEqual([]);
    if (details.failed) throw details.errorInstance;
    expect((await call(app.url, { path: "/api/user/setup" })).status).toBe(200);
  });
});
