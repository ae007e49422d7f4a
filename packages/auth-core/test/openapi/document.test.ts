import { readFileSync } from "node:fs";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, OPENAPI_PATH } from "../../src/browser.js";
import { type DomainModel, loadDomain } from "../../src/config/index.js";
import { endpointFlagsOf } from "../../src/endpoints/catalog.js";
import { type OpenApiDocument, openApiDocument } from "../../src/openapi/index.js";
import { parseRecordBody } from "../../src/records/parse-body.js";
import { fixturePath } from "../fixtures/domain-text.js";
import { useInstance } from "../support/instance.js";

/** Every domain the tests serve: the README's blog, the web app's sample, and the fixtures. */
const DOMAINS: readonly { name: string; model: () => Promise<DomainModel> }[] = [
  { name: "blog", model: async () => domainOf(BLOG_YAML) },
  { name: "web-sample", model: () => loadDomain(fileURLOf("../../../../apps/web/domain.yaml")) },
  { name: "blog-fixture", model: () => loadDomain(fixturePath("blog.domain.yaml")) },
  { name: "shop", model: () => loadDomain(fixturePath("shop.domain.yaml")) },
  { name: "open", model: () => loadDomain(fixturePath("open.domain.yaml")) },
];

/** Ajv for JSON Schema 2020-12 holding a document's component schemas (each checked against the meta-schema). */
function schemaCompiler(document: OpenApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("email", true).addFormat("password", true).addFormat("date-time", true);
  for (const [name, schema] of Object.entries(document.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return ajv;
}

/** Domains that are the README's blog, and so have its document. */
const SNAPSHOT_OF: Readonly<Record<string, string>> = { "web-sample": "blog", "blog-fixture": "blog" };

function fileURLOf(relative: string): string {
  return new URL(relative, import.meta.url).pathname;
}

type Operation = Record<string, unknown> & { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };

function operation(document: OpenApiDocument, path: string, method: string): Operation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found as Operation;
}

/** The JSON body schema of an operation. */
function bodyOf(document: OpenApiDocument, path: string, method: string): Record<string, unknown> {
  const body = operation(document, path, method).requestBody as { content: Record<string, { schema: Record<string, unknown> }> };
  const schema = body.content["application/json"]?.schema;
  if (!schema) throw new Error(`no JSON body for ${method} ${path}`);
  return schema;
}

type Response = Operation["responses"][string];

/** The codes an error response allows in its body. */
function codesOf(response: Response): string[] {
  const schema = response.content?.["application/json"]?.schema;
  return (schema?.properties as { code: { enum: string[] } } | undefined)?.code.enum ?? [];
}

/** The error codes an operation's document allows, from every error response. */
function errorCodes(document: OpenApiDocument, path: string, method: string): string[] {
  return Object.entries(operation(document, path, method).responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([, response]) => codesOf(response));
}

describe.each(DOMAINS)("the OpenAPI document of the $name domain", ({ name, model }) => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument(await model())) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has component schemas that are valid JSON Schema 2020-12 (the OpenAPI schema checks their place, not their content)", async () => {
    const ajv = schemaCompiler(openApiDocument(await model()));
    for (const name of Object.keys(openApiDocument(await model()).components.schemas))
      expect(() => ajv.getSchema(`#/components/schemas/${name}`), name).not.toThrow();
    expect(() => ajv.compile({ type: 7 })).toThrow();
  });

  it("matches its snapshot (any change to the API shows here)", async () => {
    const text = `${JSON.stringify(openApiDocument(await model()), null, 2)}\n`;
    // The web app's sample and the blog fixture are the README's blog: they share its snapshot.
    await expect(text).toMatchFileSnapshot(`./__snapshots__/${SNAPSHOT_OF[name] ?? name}.openapi.json`);
  });

  it("lists every error code of its operations from the error table, with the table's status", async () => {
    const document = openApiDocument(await model());
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, described] of Object.entries(methods)) {
        // HEAD's answers are GET's, without bodies to hold a code.
        if (method === "head") continue;
        for (const [status, response] of Object.entries((described as Operation).responses)) {
          if (Number(status) < 400) continue;
          const codes = codesOf(response);
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes)
            expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, `${method} ${path} ${code}`).toBe(Number(status));
        }
      }
    }
  });
});

describe("what the blog's document says", () => {
  const document = openApiDocument(domainOf(BLOG_YAML));

  it("has every auth and session endpoint and each entity's five operations, and no other path", () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/api/post",
        "/api/post/{id}",
        "/api/user",
        "/api/user/{id}",
        "/api/user/login",
        "/api/user/logout",
        "/api/user/me",
        "/api/user/refresh",
        "/api/user/register",
        "/api/user/sessions",
        "/api/user/sessions/{id}",
        "/api/user/setup",
        "/api/user/forgot-password",
        "/api/user/reset-password",
        "/api/user/verify-email",
        "/api/user/resend-verification",
        "/api/user/login/mfa",
        "/api/user/mfa/totp",
        "/api/user/mfa/totp/confirm",
        "/api/user/mfa/recovery-codes",
        "/api/user/login/passkey/options",
        "/api/user/login/passkey",
        "/api/user/passkeys/options",
        "/api/user/passkeys",
        "/api/user/api-keys",
        "/api/user/api-keys/{id}",
        "/api/user/passkeys/{id}",
        "/api/user/events",
        "/api/user/events/summary",
        "/api/user/providers",
      ].sort(),
    );
    expect(Object.keys(document.paths["/api/post/{id}"] ?? {})).toEqual(["get", "head", "patch", "delete"]);
    expect(Object.keys(document.paths["/api/user/setup"] ?? {})).toEqual(["get", "head", "post"]);
    // HEAD is answered wherever GET is: the same statuses, no bodies.
    const head = operation(document, "/api/post/{id}", "head");
    expect(Object.keys(head.responses)).toEqual(Object.keys(operation(document, "/api/post/{id}", "get").responses));
    expect(Object.values(head.responses).every((response) => response.content === undefined)).toBe(true);
  });

  it("documents what a right password may answer: a second step with TOTP on, an enrolment for required roles", () => {
    const answerOf = (document: OpenApiDocument, path: string, status: string) => {
      const responses = operation(document, path, "post").responses as Record<string, { content: Record<string, { schema: unknown }> }>;
      return responses[status]?.content["application/json"]?.schema;
    };
    const required = openApiDocument(domainOf(`${BLOG_YAML}  mfa: { required: [Admin] }\n`));
    expect(answerOf(required, "/api/user/setup", "201")).toEqual({
      anyOf: [{ $ref: "#/components/schemas/signedIn" }, { $ref: "#/components/schemas/mfaEnrollment" }],
    });
    expect(answerOf(required, "/api/user/login", "200")).toEqual({
      anyOf: [
        { $ref: "#/components/schemas/signedIn" },
        { $ref: "#/components/schemas/mfaChallenge" },
        { $ref: "#/components/schemas/mfaEnrollment" },
      ],
    });
    const off = openApiDocument(domainOf(`${BLOG_YAML}  mfa: { totp: false, passkeys: false }\n`));
    expect(answerOf(off, "/api/user/login", "200")).toEqual({ $ref: "#/components/schemas/signedIn" });
    expect(Object.keys(off.paths).filter((path) => /mfa|passkey/.test(path))).toEqual([]);
    expect(Object.keys(off.components.schemas).filter((name) => /mfa|totp|passkey/i.test(name))).toEqual([]);
    // Passkeys alone: the second step and the enrolment exist, TOTP's endpoints do not.
    const passkeysOnly = openApiDocument(domainOf(`${BLOG_YAML}  mfa: { totp: false, required: [Admin] }\n`));
    expect(answerOf(passkeysOnly, "/api/user/login", "200")).toEqual(answerOf(required, "/api/user/login", "200"));
    expect(Object.keys(passkeysOnly.paths).filter((path) => path.includes("totp"))).toEqual([]);
  });

  it("leaves out the endpoints a server does not serve: the e-mail ones without e-mail", () => {
    const model = domainOf(BLOG_YAML);
    const auth = model.auth;
    if (!auth) throw new Error("the blog has auth");
    const served = openApiDocument(model, { endpoints: { ...endpointFlagsOf(auth), passwordReset: false, verifyEmail: false } });
    const paths = Object.keys(served.paths);
    expect(paths).toContain("/api/user/login");
    expect(paths.filter((path) => /forgot|reset|verif/.test(path))).toEqual([]);
  });

  it("states who may call each operation, from the domain's permissions", () => {
    const update = operation(document, "/api/post/{id}", "patch");
    expect(update["x-domain-auth-permissions"]).toEqual(["@Owner", "Admin"]);
    expect(update.description).toContain("**Who may call it:** Admin; the record's owner.");
    // An API key works for entity operations and `me` (docs/api-keys.md), never for the rest of auth.
    expect(update.security).toEqual([{ bearer: [] }, { cookie: [] }, { apiKey: [] }]);
    expect(operation(document, "/api/user/me", "get").security).toEqual([{ bearer: [] }, { cookie: [] }, { apiKey: [] }]);
    expect(operation(document, "/api/user/sessions", "get").security).toEqual([{ bearer: [] }, { cookie: [] }]);
    const list = operation(document, "/api/post", "get");
    expect(list["x-domain-auth-permissions"]).toEqual(["*"]);
    expect(list.description).toContain("anyone, signed in or not");
    expect(list.security).toEqual([{}, { bearer: [] }, { cookie: [] }, { apiKey: [] }]);
    // The auth entity's guarded defaults (docs/api.md#permissions): create and delete for the setup role.
    expect(operation(document, "/api/user", "post")["x-domain-auth-permissions"]).toEqual(["Admin"]);
    expect(operation(document, "/api/user/{id}", "get").description).toContain("Admin; the user themself");
    expect(document.components.securitySchemes).toEqual({
      bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      cookie: { type: "apiKey", in: "cookie", name: "domain-auth.token" },
      apiKey: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "da_…" }),
    });
  });

  it("describes bodies with the fields' rules: required, maxLength, defaults, ref as a string id, no undeclared keys", () => {
    const create = bodyOf(document, "/api/post", "post") as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(create.required).toEqual(["title"]);
    expect(create.properties.title).toMatchObject({ type: "string", maxLength: 200 });
    expect(create.properties.published).toMatchObject({ default: false });
    expect(create.properties.author).toMatchObject({
      anyOf: [{ type: "string", description: "The id of a User record." }, { type: "null" }],
    });
    // Server-owned keys may be sent and are ignored (docs/api.md#entity-endpoints): described as such, never required.
    expect(create.properties.id).toMatchObject({ readOnly: true });
    expect(create.properties.createdAt).toMatchObject({ readOnly: true });
    expect(create).toMatchObject({ additionalProperties: false });
    const update = bodyOf(document, "/api/user/{id}", "patch") as { properties: Record<string, unknown>; required?: string[] };
    expect(update.required ?? []).toEqual([]);
    expect(Object.keys(update.properties)).toEqual(expect.arrayContaining(["email", "password", "name", "role", "currentPassword"]));
    const user = document.components.schemas.User as { properties: Record<string, unknown> };
    expect(Object.keys(user.properties)).toEqual(["id", "email", "name", "role", "createdAt", "updatedAt", "emailVerified"]);
  });

  it("gives each operation its possible codes, with Retry-After and WWW-Authenticate where they come", () => {
    expect(errorCodes(document, "/api/user/login", "post").sort()).toEqual(
      [
        "EMAIL_NOT_VERIFIED",
        // An API key, refused wherever it is not accepted.
        "FORBIDDEN",
        "FORBIDDEN_ORIGIN",
        "INVALID_BODY",
        "INVALID_CREDENTIALS",
        "PAYLOAD_TOO_LARGE",
        "TOO_MANY_ATTEMPTS",
        "UNAUTHENTICATED",
        "UNAVAILABLE",
        "UNSUPPORTED_MEDIA_TYPE",
      ].sort(),
    );
    expect(errorCodes(document, "/api/post", "get")).toEqual(expect.arrayContaining(["INVALID_QUERY", "UNAUTHENTICATED"]));
    expect(errorCodes(document, "/api/user/{id}", "delete")).toEqual(expect.arrayContaining(["LAST_ADMIN", "NOT_FOUND", "FORBIDDEN"]));
    const login = operation(document, "/api/user/login", "post").responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(Object.keys(login["429"]?.headers ?? {})).toEqual(["Retry-After"]);
    expect(Object.keys(login["401"]?.headers ?? {})).toEqual(["WWW-Authenticate"]);
  });

  it("leaves out disabled endpoints, and under auth.type none every auth endpoint and the bearer scheme", async () => {
    const shop = openApiDocument(await loadDomain(fixturePath("shop.domain.yaml")));
    expect(Object.keys(shop.paths)).not.toContain("/api/staff-member/register");
    expect(Object.keys(shop.paths).filter((path) => path.includes("sessions"))).toEqual([]);
    expect(Object.keys(shop.paths)).toContain("/api/staff-member/login");
    expect(operation(shop, "/api/product/{id}", "delete").description).toContain("**Who may call it:** nobody.");
    const open = openApiDocument(await loadDomain(fixturePath("open.domain.yaml")));
    expect(Object.keys(open.paths)).toEqual(["/api/note", "/api/note/{id}"]);
    expect(open.components.securitySchemes).toBeUndefined();
    expect(errorCodes(open, "/api/note", "post")).not.toContain("UNAUTHENTICATED");
    expect(operation(open, "/api/note/{id}", "patch")["x-domain-auth-permissions"]).toEqual(["*"]);
  });
});

describe("the document's body schemas agree with the server's validation", async () => {
  const shop = await loadDomain(fixturePath("shop.domain.yaml"));
  const document = openApiDocument(shop);
  const ajv = schemaCompiler(document);
  const product = shop.entities.find((entity) => entity.name === "Product");
  if (!product) throw new Error("no Product");

  const bodies: readonly [string, Record<string, unknown>][] = [
    ["minimal", { sku: "A-1" }],
    ["every field", { sku: "A-1", description: "x", stock: 3, price: 9.5, listed: false, launchAt: "2031-05-01T10:00:00Z" }],
    ["a required field missing", { price: 1 }],
    ["a string over maxLength (code points)", { sku: "😀".repeat(33) }],
    ["at maxLength in code points", { sku: "😀".repeat(32) }],
    ["an integer under min", { sku: "A", stock: -1 }],
    ["an integer over max", { sku: "A", stock: 100001 }],
    ["a fraction for an integer", { sku: "A", stock: 1.5 }],
    ["a number under min", { sku: "A", price: -0.01 }],
    ["null for a required field", { sku: null }],
    ["null for an optional field", { sku: "A", price: null }],
    ["an undeclared key", { sku: "A", colour: "red" }],
    ["a string for a boolean", { sku: "A", listed: "yes" }],
  ];

  it.each(bodies)("create with %s: the document and the server give the same verdict", (_, body) => {
    const accepted = ajv.validate(bodyOf(document, "/api/product", "post"), body);
    let served = true;
    try {
      parseRecordBody(product, body, "create");
    } catch {
      served = false;
    }
    expect(accepted).toBe(served);
  });
});

describe(`GET ${OPENAPI_PATH}`, () => {
  const instance = useInstance(createSqliteDatabase);

  it("serves the document to anyone, revalidated with an ETag", async () => {
    const response = await instance.api.get(OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.body).toEqual(JSON.parse(JSON.stringify(openApiDocument(instance.auth.model, { endpoints: instance.auth.endpoints }))));
    const etag = response.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await instance.api.get(OPENAPI_PATH, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await instance.api.call("HEAD", OPENAPI_PATH)).status).toBe(200);
    const post = await instance.api.post(OPENAPI_PATH, {});
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

it("the web app's sample domain is the one the fixtures' blog describes", () => {
  // Keeps the snapshot of the web sample meaningful: it is the file `npm start` serves.
  expect(readFileSync(fileURLOf("../../../../apps/web/domain.yaml"), "utf8")).toContain("name: blog");
});
