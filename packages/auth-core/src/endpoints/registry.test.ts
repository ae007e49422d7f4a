import { readFileSync } from "node:fs";
import { type SignedIn, setUpAdmin, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import { useInstance } from "../../test/support/instance.js";
import type { DomainModel } from "../config/index.js";
import { ENDPOINTS, type EndpointFlag } from "../config/vocabulary.js";
import type { AuthServices, RouteContext } from "../context.js";
import { openApiDocument } from "../openapi/document.js";
import { allowedMethods, createRouteMatcher } from "../router.js";
import { AUTH_OPERATIONS } from "../routes/index.js";
import { entryPath } from "./api-paths.js";
import { AUTH_ENDPOINTS, type CatalogOperation, catalogOperations, type EndpointEntry, endpointFlagsOf } from "./catalog.js";
import { OPERATION_SCHEMAS, type OperationSchemas } from "./schemas.js";

/** The blog with a provider and organizations declared: every operation of the catalog is served (the provider's secrets given below; it is never reached). */
const BLOG_WITH_PROVIDER = BLOG_YAML.replace(
  "auth:\n  type: jwt\n",
  'auth:\n  type: jwt\n  providers:\n    acme: { type: oidc, issuer: "https://id.acme.example" }\n  organizations:\n    roles: [Owner, Member]\n',
);
const PROVIDER_SECRETS = { acme: { clientId: "registry-test", clientSecret: "registry-test-secret" } };

const OPEN_YAML = readFileSync(new URL("../../test/fixtures/open.domain.yaml", import.meta.url), "utf8");

/** The flags a domain sets; `mfa` follows from `totp` and `passkeys` ({@link endpointFlagsOf}). */
const SET_FLAGS = [...ENDPOINTS, "totp", "passkeys"] as const;

/**
 * Every combination of the flags a domain can have (`auth.endpoints`, `totp`, `passkeys`): 2¹¹ of
 * them; `providers` is on in half of them, by the parity of the others, and `organizations` in half by
 * the parity of all but the first, so each meets every other flag on and off (their endpoints depend on
 * that flag alone).
 */
function flagCombinations(): Record<EndpointFlag, boolean>[] {
  const parity = (bits: number): boolean => bits.toString(2).split("1").length % 2 === 0;
  return Array.from({ length: 2 ** SET_FLAGS.length }, (_, bits) => {
    const set = Object.fromEntries(SET_FLAGS.map((flag, index) => [flag, (bits & (1 << index)) !== 0])) as Record<
      (typeof SET_FLAGS)[number],
      boolean
    >;
    return endpointFlagsOf({
      endpoints: set,
      mfa: { totp: set.totp, passkeys: set.passkeys },
      providers: parity(bits) ? ["acme"] : [],
      organizations: parity(bits >> 1) ? { roles: ["Owner"] } : null,
    });
  });
}

/** The router of a model with these endpoints on; its handlers are never called here. */
function matcherOf(model: DomainModel, endpoints: Record<EndpointFlag, boolean> | null) {
  const services = model.auth && endpoints ? ({ auth: model.auth, endpoints } as unknown as AuthServices) : null;
  return createRouteMatcher({ model, services } as unknown as RouteContext);
}

/** Every path the router could answer for this model, as a document writes it (`{id}` for a parameter). */
function candidatePaths(model: DomainModel): string[] {
  const authEntity = model.auth?.entity;
  const auth = authEntity ? (Object.values(AUTH_ENDPOINTS) as EndpointEntry[]).map((entry) => entryPath(authEntity, entry)) : [];
  const entities = model.entities.flatMap((entity) => [`/api/${entity.segment}`, `/api/${entity.segment}/{id}`]);
  return [...auth, ...entities];
}

/** `METHOD path` for each operation the router answers (HEAD included: it is answered wherever GET is). */
function routerOperations(model: DomainModel, endpoints: Record<EndpointFlag, boolean> | null): string[] {
  const match = matcherOf(model, endpoints);
  return candidatePaths(model).flatMap((path) => {
    const handlers = match(path.replace(/\{[^}]+\}/g, "a-record-id"));
    return handlers ? allowedMethods(handlers).map((method) => `${method} ${path}`) : [];
  });
}

function documentOperations(model: DomainModel, endpoints: Record<EndpointFlag, boolean> | null): string[] {
  const { paths } = openApiDocument(model, { endpoints });
  return Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
}

describe("the endpoint registry", () => {
  it("gives every operation of the catalog a handler and its schemas, and each operation id once", () => {
    const ids = catalogOperations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(AUTH_OPERATIONS).sort()).toEqual([...ids].sort());
    for (const [id, definition] of Object.entries(AUTH_OPERATIONS)) expect(definition.id).toBe(id);
    expect(Object.keys(OPERATION_SCHEMAS).sort()).toEqual([...ids].sort());
  });

  it("names each path parameter of a path in its operations' parameters", () => {
    for (const entry of Object.values(AUTH_ENDPOINTS) as EndpointEntry[]) {
      const named = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]);
      for (const operation of Object.values(entry.operations)) {
        expect((operation.parameters ?? []).filter((parameter) => parameter.in === "path").map((parameter) => parameter.name)).toEqual(
          named,
        );
      }
    }
  });

  it("routes exactly the operations the OpenAPI document lists, for every combination of endpoint flags", () => {
    const model = domainOf(BLOG_YAML);
    for (const endpoints of flagCombinations()) {
      expect(routerOperations(model, endpoints).sort(), JSON.stringify(endpoints)).toEqual(documentOperations(model, endpoints).sort());
    }
    // 2,048 documents: seconds alone, longer beside the other suites.
  }, 120_000);

  it("routes exactly the operations the OpenAPI document lists under auth.type none", () => {
    const model = domainOf(OPEN_YAML);
    expect(routerOperations(model, null).sort()).toEqual(documentOperations(model, null).sort());
  });
});

describe("who may call each auth operation, as the registry says", () => {
  const instance = useInstance(createSqliteDatabase, BLOG_WITH_PROVIDER, {
    providers: PROVIDER_SECRETS,
    mail: { mailer: { send: async () => {} }, appUrl: "https://app.example.com" },
  });

  it.each(
    catalogOperations().map(
      ({ entry, method, operation }) => [operation.operationId, method, entry.path, operation.caller, entry.base] as const,
    ),
  )("%s (%s %s): caller %s", async (_id, method, path, caller, baseName) => {
    const base = baseName ? { base: baseName } : {};
    const url = entryPath({ segment: "user" }, { path: path.replace(/\{[^}]+\}/g, "a-session-id"), ...base, operations: {} });
    const body = method === "POST" ? {} : undefined;
    const anonymous = await instance.api.call(method, url, body);
    if (caller === "bearer") expect(anonymous).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
    else expect(anonymous.status).not.toBe(401);
    // A token that fails verification is refused everywhere, open operations included (docs/api.md#login).
    const forged = await instance.api.call(method, url, body, { token: "not-a-token" });
    expect(forged).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
  });
});

/** The organization the admin of the second suite created: `{orgId}` names it, so the organization endpoints reach their own checks. */
let organizationId = "no-organization-yet";

/** An operation's URL on the test domain, its path parameters filled with an id no record has (`{orgId}` with the admin's organization). */
function urlOf({ entry }: CatalogOperation, query = ""): string {
  const path = entryPath({ segment: "user" }, entry).replace("{orgId}", organizationId);
  return `${path.replace(/\{[^}]+\}/g, "a-record-id")}${query}`;
}

/** `id (METHOD path)`: a test's name for an operation. */
const named = (operations: CatalogOperation[]) =>
  operations.map((each) => [`${each.operation.operationId} (${each.method} ${each.entry.path})`, each] as const);

describe("every rule an operation's entry declares is enforced before its handler runs", () => {
  // A session is never recent here: every sensitive action needs `currentPassword`.
  const instance = useInstance(createSqliteDatabase, BLOG_WITH_PROVIDER, {
    providers: PROVIDER_SECRETS,
    mail: { mailer: { send: async () => {} }, appUrl: "https://app.example.com" },
    reauthWindowSeconds: 0,
  });
  let admin: SignedIn;
  let key: string;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
    const created = await instance.api.post(
      "/api/user/api-keys",
      { name: "registry", currentPassword: TEST_PASSWORD },
      { token: admin.token },
    );
    expect(created.status, created.text).toBe(201);
    key = created.body.key;
    const organization = await instance.api.post("/api/orgs", { name: "Registry" }, { token: admin.token });
    expect(organization.status, organization.text).toBe(201);
    organizationId = organization.body.organization.id;
  });

  it.each(named(catalogOperations()))("%s: an API key only where the entry says apiKey, 403 elsewhere", async (_name, each) => {
    const answer = await instance.api.call(each.method, urlOf(each), each.method === "POST" ? {} : undefined, { token: key });
    if (each.operation.apiKey) expect(answer.status, answer.text).toBe(200);
    else expect(answer, answer.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
  });

  const namingOthers = catalogOperations().filter(({ operation }) => operation.setupRoleWith);
  it.each(named(namingOthers))(
    "%s: naming another user needs the setup role, decided before the rest of the query",
    async (_name, each) => {
      const reader = await signUp(instance.api, { email: `reader-${each.operation.operationId.toLowerCase()}@example.com` });
      const parameter = each.operation.setupRoleWith ?? "";
      const other = await instance.api.call(each.method, urlOf(each, `?${parameter}=${admin.id}&limit=0`), undefined, {
        token: reader.token,
      });
      expect(other, other.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      // The setup role may name anyone (an unknown id is then 404 where the operation looks them up).
      const byAdmin = await instance.api.call(each.method, urlOf(each, `?${parameter}=${reader.id}`), undefined, { token: admin.token });
      expect(byAdmin.status, byAdmin.text).toBeLessThan(300);
    },
  );

  const setupRoleOnly = catalogOperations().filter(({ operation }) => operation.setupRoleOnly);
  it.each(named(setupRoleOnly))("%s: only the setup role, decided before the query is read", async (_name, each) => {
    const reader = await signUp(instance.api, { email: `only-${each.operation.operationId.toLowerCase()}@example.com` });
    for (const query of ["", "?limit=0&window=never"]) {
      const other = await instance.api.call(each.method, urlOf(each, query), undefined, { token: reader.token });
      expect(other, other.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    }
    const byAdmin = await instance.api.call(each.method, urlOf(each), undefined, { token: admin.token });
    expect(byAdmin.status, byAdmin.text).toBeLessThan(300);
  });

  const sensitive = catalogOperations().filter(({ operation }) => operation.recentSignIn);
  it.each(named(sensitive))(
    "%s: a session past the window is 403 REAUTHENTICATION_REQUIRED, before its body is read",
    async (_name, each) => {
      for (const body of [undefined, { name: "" }]) {
        const answer = await instance.api.call(each.method, urlOf(each), body, { token: admin.token });
        expect(answer, answer.text).toMatchObject({ status: 403, body: { code: "REAUTHENTICATION_REQUIRED" } });
      }
      const wrong = await instance.api.call(each.method, urlOf(each), { currentPassword: "not it" }, { token: admin.token });
      expect(wrong.body.issues).toEqual([{ path: ["currentPassword"], message: "is wrong" }]);
    },
  );

  const queried = catalogOperations().filter(({ operation }) =>
    (operation.parameters ?? []).some((parameter) => parameter.in === "query" && (parameter.type === "integer" || parameter.values)),
  );
  it.each(named(queried))("%s: a query parameter out of its range or values is 400 INVALID_QUERY", async (_name, each) => {
    for (const parameter of each.operation.parameters ?? []) {
      const bad =
        parameter.type === "integer" ? [`${(parameter.maximum ?? 0) + 1}`, "-1", "1.5", "ten"] : parameter.values ? ["none-of-them"] : [];
      for (const value of bad) {
        const answer = await instance.api.call(each.method, urlOf(each, `?${parameter.name}=${value}`), undefined, { token: admin.token });
        expect(answer.status, `${parameter.name}=${value}`).toBe(400);
        expect(answer.body).toMatchObject({ code: "INVALID_QUERY", issues: [{ path: [parameter.name] }] });
      }
    }
  });

  const schemas: Readonly<Record<string, OperationSchemas>> = OPERATION_SCHEMAS;
  const reading = catalogOperations().filter(({ operation }) => schemas[operation.operationId]?.body !== undefined);
  it.each(named(reading))("%s: a body that is not JSON is 415, one that is not an object 400", async (_name, each) => {
    // Setup is done here: 409 before the body is looked at.
    const expected = each.operation.operationId === "setup" ? 409 : 415;
    const text = await instance.api.call(each.method, urlOf(each), undefined, {
      token: admin.token,
      raw: "a=1",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status, text.text).toBe(expected);
    const list = await instance.api.call(each.method, urlOf(each), undefined, {
      token: admin.token,
      raw: "[]",
      headers: { "content-type": "application/json" },
    });
    expect(list.status, list.text).toBe(expected === 415 ? 400 : expected);
  });
});
