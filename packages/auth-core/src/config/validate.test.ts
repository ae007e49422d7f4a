import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { fixturePath, yaml } from "../../test/fixtures/domain-text.js";
import { formatPath, type Severity } from "./diagnostics.js";
import { validateDomainText } from "./validate.js";

interface Expected {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly severity?: Severity;
  /** A part of the message that names the problem. */
  readonly says?: string;
}

interface RuleCase {
  readonly rule: string;
  readonly valid: string;
  readonly invalid: string;
  readonly expected: readonly Expected[];
}

function reported(text: string) {
  return validateDomainText(text).diagnostics.map((d) => ({
    path: formatPath(d.path),
    line: d.line,
    column: d.column,
    severity: d.severity,
    message: d.message,
  }));
}

function expectReports(text: string, expected: readonly Expected[]): void {
  expect(reported(text)).toEqual(
    expected.map(({ says, severity = "error", ...where }) => ({
      ...where,
      severity,
      message: says === undefined ? expect.any(String) : expect.stringContaining(says),
    })),
  );
}

const cases: RuleCase[] = [
  {
    rule: "1: auth.type must be jwt or none",
    valid: yaml`
      name: notes
      entities:
        Note:
          fields: { body: text }
      auth:
        type: none
    `,
    invalid: yaml`
      name: notes
      entities:
        Note:
          fields: { body: text }
      auth:
        type: jtw
    `,
    expected: [{ path: "auth.type", line: 6, column: 9, says: "is not one of jwt, none (did you mean 'jwt'?)" }],
  },
  {
    rule: "1: auth.type is required, reported at the auth map",
    valid: yaml`
      name: notes
      entities: { Note: { fields: { body: text } } }
      auth: { type: none, roles: [Admin] }
    `,
    invalid: yaml`
      name: notes
      entities: { Note: { fields: { body: text } } }
      auth:
        roles: [Admin]
    `,
    expected: [{ path: "auth.type", line: 4, column: 3, says: "missing required key 'type'" }],
  },
  {
    rule: "2: auth.entity must name an existing entity",
    valid: yaml`
      name: shop
      entities:
        Customer:
          fields: { email: string, password: string }
      auth:
        type: jwt
        entity: Customer
    `,
    invalid: yaml`
      name: shop
      entities:
        Customer:
          fields: { email: string, password: string }
      auth:
        type: jwt
        entity: Custmer
    `,
    expected: [{ path: "auth.entity", line: 7, column: 11, says: "'Custmer' is not an entity (did you mean 'Customer'?)" }],
  },
  {
    rule: "3: the named auth entity needs email and password, reported at its fields map",
    valid: yaml`
      name: shop
      entities:
        Customer:
          fields:
            email: string
            password: string
      auth: { type: jwt, entity: Customer }
    `,
    invalid: yaml`
      name: shop
      entities:
        Customer:
          fields:
            email: string
      auth: { type: jwt, entity: Customer }
    `,
    expected: [{ path: "entities.Customer.fields.password", line: 5, column: 7, says: "needs a 'password' field" }],
  },
  {
    rule: "3: with auth.entity omitted, no candidate is an error naming the near misses",
    valid: yaml`
      name: shop
      entities:
        Account:
          fields: { email: string, password: string }
        Product:
          fields: { title: string }
      auth:
        type: jwt
    `,
    invalid: yaml`
      name: shop
      entities:
        Account:
          fields: { email: string }
        Product:
          fields: { title: string }
      auth:
        type: jwt
    `,
    expected: [
      {
        path: "auth.entity",
        line: 8,
        column: 3,
        says: "no entity has both 'email' and 'password' fields (Account has 'email' but no 'password')",
      },
    ],
  },
  {
    rule: "3: with auth.entity omitted, several candidates are an error naming them",
    valid: yaml`
      name: shop
      entities:
        Account:
          fields: { email: string, password: string }
        Member:
          fields: { email: string, password: string }
      auth:
        type: jwt
        entity: Member
    `,
    invalid: yaml`
      name: shop
      entities:
        Account:
          fields: { email: string, password: string }
        Member:
          fields: { email: string, password: string }
      auth:
        type: jwt
    `,
    expected: [{ path: "auth.entity", line: 8, column: 3, says: "(Account, Member); set auth.entity to one of them" }],
  },
  {
    rule: "4: roles are identifiers, declared once",
    valid: yaml`
      name: shop
      entities:
        User: { fields: { email: string, password: string } }
      auth:
        type: jwt
        roles: [Admin, Sales_Team, _staff]
    `,
    invalid: yaml`
      name: shop
      entities:
        User: { fields: { email: string, password: string } }
      auth:
        type: jwt
        roles: [Admin, 2nd, Admin, sales-team]
    `,
    expected: [
      { path: "auth.roles[1]", line: 6, column: 18, says: "'2nd' is not a valid role name" },
      { path: "auth.roles[2]", line: 6, column: 23, says: "role 'Admin' is declared twice" },
      { path: "auth.roles[3]", line: 6, column: 30, says: "'sales-team' is not a valid role name" },
    ],
  },
  {
    rule: "5: roles in permissions must be declared; unknown @ tokens are warnings",
    valid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
        Post:
          fields: { title: string }
          permissions:
            create: [Editor, "@Authenticated"]
            read: ["*"]
            update: ["@Owner", Editor]
            delete: []
      auth: { type: jwt, roles: [Admin, Editor] }
    `,
    invalid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
        Post:
          fields: { title: string }
          permissions:
            create: [editor, Writer]
            read: ["@Everyone"]
      auth: { type: jwt, roles: [Admin, Editor] }
    `,
    expected: [
      {
        path: "entities.Post.permissions.create[0]",
        line: 7,
        column: 16,
        says: "role 'editor' is not declared in auth.roles (did you mean 'Editor'?)",
      },
      {
        path: "entities.Post.permissions.create[1]",
        line: 7,
        column: 24,
        says: "role 'Writer' is not declared in auth.roles (declared: Admin, Editor)",
      },
      {
        path: "entities.Post.permissions.read[0]",
        line: 8,
        column: 14,
        severity: "warning",
        says: "unknown token '@Everyone' grants nothing",
      },
    ],
  },
  {
    rule: "unknown operations are errors",
    valid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
        Post:
          fields: { title: string }
          permissions: { read: ["*"] }
      auth: { type: jwt }
    `,
    invalid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
        Post:
          fields: { title: string }
          permissions: { raed: ["*"], list: ["*"] }
      auth: { type: jwt }
    `,
    expected: [
      { path: "entities.Post.permissions.raed", line: 6, column: 20, says: "unknown operation 'raed' (did you mean 'read'?)" },
      {
        path: "entities.Post.permissions.list",
        line: 6,
        column: 33,
        says: "unknown operation 'list' (expected one of: create, read, update, delete)",
      },
    ],
  },
  {
    rule: "the role default must be a declared role",
    valid: yaml`
      name: blog
      entities:
        User:
          fields:
            email: string
            password: string
            role: { type: string, default: Reader }
      auth: { type: jwt, roles: [Admin, Reader] }
    `,
    invalid: yaml`
      name: blog
      entities:
        User:
          fields:
            email: string
            password: string
            role: { type: string, default: Raeder }
      auth: { type: jwt, roles: [Admin, Reader] }
    `,
    expected: [
      {
        path: "entities.User.fields.role.default",
        line: 7,
        column: 38,
        says: "default role 'Raeder' is not declared in auth.roles (did you mean 'Reader'?)",
      },
    ],
  },
  {
    rule: "the role default must not be the setup role",
    valid: yaml`
      name: blog
      entities:
        User:
          fields:
            email: string
            password: string
            role: { type: string, default: Reader }
      auth: { type: jwt, roles: [Owner, Reader] }
    `,
    invalid: yaml`
      name: blog
      entities:
        User:
          fields:
            email: string
            password: string
            role: { type: string, default: Owner }
      auth: { type: jwt, roles: [Owner, Reader] }
    `,
    expected: [
      {
        path: "entities.User.fields.role.default",
        line: 7,
        column: 38,
        says: "'Owner' is the setup role; register must never create an administrator",
      },
    ],
  },
  {
    rule: "a ref must point to an existing entity",
    valid: yaml`
      name: blog
      entities:
        Author: { fields: { name: string } }
        Post:
          fields:
            author: { type: ref, to: Author }
      auth: { type: none }
    `,
    invalid: yaml`
      name: blog
      entities:
        Author: { fields: { name: string } }
        Post:
          fields:
            author: { type: ref, to: Autor }
            editor: { type: ref, to: author }
            reviewer: ref
      auth: { type: none }
    `,
    expected: [
      { path: "entities.Post.fields.author.to", line: 6, column: 32, says: "ref to unknown entity 'Autor' (did you mean 'Author'?)" },
      { path: "entities.Post.fields.editor.to", line: 7, column: 32, says: "'author' is not a valid entity name" },
      { path: "entities.Post.fields.reviewer.to", line: 8, column: 17, says: "a ref field needs 'to: <Entity>'" },
    ],
  },
  {
    rule: "@Owner cannot grant create on the auth entity",
    valid: yaml`
      name: blog
      entities:
        User:
          fields: { email: string, password: string }
          permissions: { create: ["*"], read: ["@Owner"] }
      auth: { type: jwt, roles: [Admin] }
    `,
    invalid: yaml`
      name: blog
      entities:
        User:
          fields: { email: string, password: string }
          permissions: { create: [Admin, "@Owner"], read: ["@Owner"] }
      auth: { type: jwt, roles: [Admin] }
    `,
    expected: [{ path: "entities.User.permissions.create[1]", line: 5, column: 36, says: "@Owner cannot grant create on the auth entity" }],
  },
  {
    rule: "two entities cannot share a segment",
    valid: yaml`
      name: keys
      entities:
        APIKey: { fields: { value: string } }
        ApiToken: { fields: { value: string } }
      auth: { type: none }
    `,
    invalid: yaml`
      name: keys
      entities:
        APIKey: { fields: { value: string } }
        ApiKey: { fields: { value: string } }
      auth: { type: none }
    `,
    expected: [{ path: "entities.ApiKey", line: 4, column: 3, says: "entities 'APIKey' and 'ApiKey' share the URL segment 'api-key'" }],
  },
  {
    rule: "entity and field names follow their patterns",
    valid: yaml`
      name: blog
      entities:
        BlogPost: { fields: { first_line: string, _draft: boolean } }
      auth: { type: none }
    `,
    invalid: yaml`
      name: my blog
      entities:
        blogPost: { fields: { 1st: string } }
        Post: { fields: { "sub-title": string } }
      auth: { type: none }
    `,
    expected: [
      { path: "name", line: 1, column: 7, says: "'my blog' is not a valid service name" },
      { path: "entities.blogPost", line: 3, column: 3, says: "'blogPost' is not a valid entity name: use PascalCase" },
      { path: "entities.Post.fields.sub-title", line: 4, column: 21, says: "'sub-title' is not a valid field name" },
    ],
  },
  {
    rule: "id, createdAt and updatedAt (and passwordHash on the auth entity) cannot be declared",
    valid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string, displayName: string } }
      auth: { type: jwt }
    `,
    invalid: yaml`
      name: blog
      entities:
        User:
          fields:
            email: string
            password: string
            passwordHash: string
            createdAt: datetime
      auth: { type: jwt }
    `,
    expected: [
      { path: "entities.User.fields.passwordHash", line: 7, column: 7, says: "managed by the service" },
      { path: "entities.User.fields.createdAt", line: 8, column: 7, says: "managed by the service" },
    ],
  },
  {
    rule: "owner names a ref field to the auth entity; ownerId is reserved with @Owner",
    valid: yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
        Post:
          owner: author
          fields: { author: { type: ref, to: User } }
          permissions: { update: ["@Owner"] }
        Comment:
          fields: { body: text }
          permissions: { delete: ["@Owner"] }
      auth: { type: jwt }
    `,
    invalid: yaml`
      name: blog
      entities:
        User:
          owner: email
          fields: { email: string, password: string }
        Post:
          owner: writer
          fields: { author: { type: ref, to: User } }
        Draft:
          owner: title
          fields: { title: string }
        Comment:
          fields: { body: text, ownerId: string }
          permissions: { delete: ["@Owner"] }
      auth: { type: jwt }
    `,
    expected: [
      { path: "entities.User.owner", line: 4, column: 12, says: "the auth entity cannot have an owner" },
      { path: "entities.Post.owner", line: 7, column: 12, says: "owner 'writer' is not a field of Post" },
      { path: "entities.Draft.owner", line: 10, column: 12, says: "owner 'title' must be a ref field to User" },
      { path: "entities.Comment.fields.ownerId", line: 13, column: 27, says: "'ownerId' is reserved" },
    ],
  },
  {
    rule: "field options fit the field's type",
    valid: yaml`
      name: shop
      entities:
        Product:
          fields:
            title: { type: string, maxLength: 80, default: Untitled }
            stock: { type: integer, min: 0, max: 1000, default: 1 }
            price: { type: number, min: 0.5 }
            launch: { type: datetime, default: "2026-01-01T00:00:00Z" }
      auth: { type: none }
    `,
    invalid: yaml`
      name: shop
      entities:
        Product:
          fields:
            title: { type: string, maxLength: 0, min: 1 }
            stock: { type: integer, min: 10, max: 5, default: 1.5 }
            launch: { type: datetime, default: soon }
      auth: { type: none }
    `,
    expected: [
      { path: "entities.Product.fields.title.maxLength", line: 5, column: 41, says: "must be at least 1" },
      { path: "entities.Product.fields.title.min", line: 5, column: 44, says: "min applies only to integer and number fields" },
      { path: "entities.Product.fields.stock.min", line: 6, column: 36, says: "min 10 is greater than max 5" },
      { path: "entities.Product.fields.stock.default", line: 6, column: 57, says: "default must be a whole number" },
      { path: "entities.Product.fields.launch.default", line: 7, column: 42, says: "default must be an ISO 8601 date and time" },
    ],
  },
  {
    rule: "YAML 1.2: yes is a string, not a boolean",
    valid: yaml`
      name: survey
      entities:
        Answer:
          fields:
            choice: { type: string, default: yes }
      auth: { type: none }
    `,
    invalid: yaml`
      name: survey
      entities:
        Answer:
          fields:
            choice: { type: string, required: yes }
      auth:
        type: none
    `,
    expected: [{ path: "entities.Answer.fields.choice.required", line: 5, column: 41, says: 'expected true or false, got string "yes"' }],
  },
  {
    rule: "a duplicate key is reported at its second occurrence",
    valid: yaml`
      name: blog
      entities:
        Post:
          fields:
            title: string
            body: text
      auth: { type: none }
    `,
    invalid: yaml`
      name: blog
      entities:
        Post:
          fields:
            title: string
            title: text
      auth: { type: none }
    `,
    expected: [{ path: "entities.Post.fields.title", line: 6, column: 7, says: "duplicate key 'title'" }],
  },
  {
    rule: "a missing key is reported at its parent map",
    valid: yaml`
      name: blog
      entities:
        Post:
          fields: { title: string }
      auth: { type: none }
    `,
    invalid: yaml`
      entities:
        Post:
          permissions: { read: ["*"] }
      auth: { type: none }
    `,
    expected: [
      { path: "name", line: 1, column: 1, says: "missing required key 'name'" },
      { path: "entities.Post.fields", line: 3, column: 5, says: "missing required key 'fields'" },
      { path: "entities.Post.permissions", line: 3, column: 5, severity: "warning", says: "permissions are not enforced" },
    ],
  },
];

describe("validateDomainText: docs/domain-yaml.md#validation rules", () => {
  describe.each(cases)("rule $rule", ({ valid, invalid, expected }) => {
    it("accepts the valid fixture", () => {
      const result = validateDomainText(valid);
      expect(result.diagnostics).toEqual([]);
      expect(result.model).not.toBeNull();
    });

    it("reports the invalid fixture at the exact path, line and column", () => {
      expectReports(invalid, expected);
      const errors = expected.filter((problem) => (problem.severity ?? "error") === "error").length;
      expect(validateDomainText(invalid).errorCount).toBe(errors);
      expect(validateDomainText(invalid).model).toBeNull();
    });
  });
});

describe("planned auth types", () => {
  it.each(["cookie", "oauth2"])("auth.type %s is planned but not implemented", (type) => {
    const text = yaml`
      name: blog
      entities:
        User: { fields: { email: string, password: string } }
      auth:
        type: ${type}
    `;
    expect(reported(text)).toEqual([
      {
        path: "auth.type",
        line: 5,
        column: 9,
        severity: "error",
        message: `auth.type '${type}' is planned but not implemented; use jwt or none`,
      },
    ]);
  });
});

describe("unknown keys anywhere, with did-you-mean hints", () => {
  const text = yaml`
    name: blog
    titel: My blog
    entities:
      Post:
        feilds: { title: string }
        fields:
          title: { type: string, requried: true }
        permissions: { read: ["*"] }
    auth:
      type: jwt
      role: [Admin]
      endpoints: { logn: false, webhook: true }
  `;

  it.each([
    ["titel", 2, 1, "unknown key 'titel'"],
    ["entities.Post.feilds", 5, 5, "unknown key 'feilds' (did you mean 'fields'?)"],
    ["entities.Post.fields.title.requried", 7, 30, "unknown field option 'requried' (did you mean 'required'?)"],
    ["auth.role", 11, 3, "unknown key 'role' (did you mean 'roles'?)"],
    ["auth.endpoints.logn", 12, 16, "unknown endpoint 'logn' (did you mean 'login'?)"],
    [
      "auth.endpoints.webhook",
      12,
      29,
      "unknown endpoint 'webhook' (expected one of: login, register, me, setup, logout, refresh, sessions, passwordReset, verifyEmail)",
    ],
  ])("%s at %i:%i", (path, line, column, says) => {
    expect(reported(text)).toContainEqual({ path, line, column, severity: "error", message: expect.stringContaining(says) });
  });

  it("reports a misspelt required key once, as the unknown key", () => {
    const misspelt = yaml`
      nmae: blog
      entities: { Post: { fields: { title: string } } }
      auth: { type: none }
    `;
    expect(reported(misspelt)).toEqual([
      { path: "nmae", line: 1, column: 1, severity: "error", message: "unknown key 'nmae' (did you mean 'name'?)" },
    ]);
  });
});

describe("auth.mfa", () => {
  const withMfa = (mfa: string, type = "jwt") => yaml`
    name: blog
    entities:
      User: { fields: { email: string, password: string } }
    auth:
      type: ${type}
      roles: [Admin, Editor]
      mfa: ${mfa}
  `;

  it("accepts declared roles in required", () => {
    expect(reported(withMfa("{ totp: true, required: [Admin, Editor] }"))).toEqual([]);
  });

  it("reports an undeclared role in required as rule 5 does, with a hint", () => {
    expectReports(withMfa("{ required: [Admin, Edtor] }"), [
      { path: "auth.mfa.required[1]", line: 7, column: 28, says: "role 'Edtor' is not declared in auth.roles (did you mean 'Editor'?)" },
    ]);
  });

  it("reports unknown keys with a hint and wrong types", () => {
    expectReports(withMfa("{ totpp: true, passkeys: yes, required: Admin }"), [
      { path: "auth.mfa.totpp", line: 7, column: 10, says: "unknown key 'totpp' (did you mean 'totp'?)" },
      { path: "auth.mfa.passkeys", line: 7, column: 33, says: 'expected true or false, got string "yes"' },
      { path: "auth.mfa.required", line: 7, column: 48, says: 'expected a list, got string "Admin" (write [Admin])' },
    ]);
  });

  it("refuses a requirement no factor can meet", () => {
    expectReports(withMfa("{ totp: false, passkeys: false, required: [Admin] }"), [
      { path: "auth.mfa.required", line: 7, column: 40, says: "while totp and passkeys are both off" },
    ]);
  });

  it("warns that it has no effect under auth.type none", () => {
    expectReports(withMfa("{ required: [Admin] }", "none"), [
      { path: "entities.User.fields.password", line: 3, column: 36, severity: "warning", says: "'password' field" },
      { path: "auth.mfa", line: 7, column: 3, severity: "warning", says: "auth.mfa has no effect" },
    ]);
  });
});

describe("auth.providers", () => {
  const withProviders = (providers: string, options: { type?: string; fields?: string } = {}) => yaml`
    name: blog
    entities:
      User: { fields: { email: string, password: string, ${options.fields ?? "name: string"} } }
    auth:
      type: ${options.type ?? "jwt"}
      roles: [Admin, Reader]
      providers: ${providers}
  `;

  it("resolves presets, an issuer as written, names and scopes, in the declared order", () => {
    const text = withProviders(
      "{ acme: { type: oidc, issuer: 'https://id.acme.example/realms/main', name: Acme, scopes: [openid, email] }, google: { type: google }, work: { type: microsoft, tenant: contoso.example }, github: { type: github, url: 'https://git.acme.example/' } }",
    );
    const { model, diagnostics } = validateDomainText(text);
    expect(diagnostics).toEqual([]);
    expect(model?.auth?.providers).toEqual([
      {
        id: "acme",
        type: "oidc",
        name: "Acme",
        protocol: "oidc",
        issuer: "https://id.acme.example/realms/main",
        url: null,
        scopes: ["openid", "email"],
        vouchesForEmail: true,
      },
      {
        id: "google",
        type: "google",
        name: "Google",
        protocol: "oidc",
        issuer: "https://accounts.google.com",
        url: null,
        scopes: ["openid", "email", "profile"],
        vouchesForEmail: true,
      },
      {
        id: "work",
        type: "microsoft",
        name: "Microsoft",
        protocol: "oidc",
        issuer: "https://login.microsoftonline.com/contoso.example/v2.0",
        url: null,
        scopes: ["openid", "email", "profile"],
        vouchesForEmail: false,
      },
      {
        id: "github",
        type: "github",
        name: "GitHub",
        protocol: "github",
        issuer: null,
        url: "https://git.acme.example",
        scopes: ["read:user", "user:email"],
        vouchesForEmail: true,
      },
    ]);
    expect(validateDomainText(withProviders("{}")).model?.auth?.providers).toEqual([]);
  });

  it("accepts an http issuer on a loopback host only", () => {
    expect(reported(withProviders("{ dev: { type: oidc, issuer: 'http://127.0.0.1:4000' } }"))).toEqual([]);
    expect(reported(withProviders("{ dev: { type: oidc, issuer: 'http://localhost:4000/oidc' } }"))).toEqual([]);
    expectReports(withProviders("{ dev: { type: oidc, issuer: 'http://id.acme.example' } }"), [
      { path: "auth.providers.dev.issuer", line: 7, column: 43, says: "issuer must be https (http only on localhost, 127.0.0.1 or [::1])" },
    ]);
  });

  it("reports a bad id, an unknown type or key, a missing issuer, a key of another type and scopes without openid", () => {
    expectReports(withProviders("{ Acme: { type: oidc, issuer: 'https://a.example' } }"), [
      { path: "auth.providers.Acme", line: 7, column: 16, says: "" },
    ]);
    expectReports(withProviders("{ acme: { type: okta } }"), [{ path: "auth.providers.acme.type", line: 7, column: 30, says: "okta" }]);
    expectReports(withProviders("{ acme: { type: oidc, isuer: 'https://a.example' } }"), [
      { path: "auth.providers.acme", line: 7, column: 16, says: "an oidc provider needs issuer" },
      { path: "auth.providers.acme.isuer", line: 7, column: 36, says: "unknown key 'isuer' (did you mean 'issuer'?)" },
    ]);
    expectReports(withProviders("{ work: { type: microsoft } }"), [
      { path: "auth.providers.work", line: 7, column: 16, says: "needs tenant" },
    ]);
    expectReports(withProviders("{ work: { type: microsoft, tenant: organizations } }"), [
      { path: "auth.providers.work.tenant", line: 7, column: 49, says: "organizations, common and consumers name no one issuer" },
    ]);
    expectReports(withProviders("{ google: { type: google, tenant: contoso } }"), [
      { path: "auth.providers.google.tenant", line: 7, column: 40, says: "tenant applies to type microsoft only" },
    ]);
    expectReports(withProviders("{ acme: { type: oidc, issuer: 'https://a.example', scopes: [email] } }"), [
      { path: "auth.providers.acme.scopes", line: 7, column: 73, says: "scopes must include openid" },
    ]);
  });

  it("needs a default on every other required field of the auth entity: a provider's user has only an email and a name", () => {
    expectReports(
      withProviders("{ google: { type: google } }", {
        fields: "name: { type: string, required: true }, company: { type: string, required: true }",
      }),
      [{ path: "entities.User.fields.company", line: 3, column: 94, says: "give company a default" }],
    );
    const withDefault = withProviders("{ google: { type: google } }", {
      fields: "company: { type: string, required: true, default: none }",
    });
    expect(reported(withDefault)).toEqual([]);
  });

  it("refuses providers under auth.type none", () => {
    const reports = reported(withProviders("{ google: { type: google } }", { type: "none" }));
    expect(reports).toContainEqual(
      expect.objectContaining({ path: "auth.providers", severity: "error", message: expect.stringContaining("no providers") }),
    );
  });
});

describe("auth.type none", () => {
  const text = yaml`
    name: notes
    entities:
      Account:
        fields:
          password: string
          role: { type: string, default: Boss }
        permissions:
          read: [Ghost, "@Owner"]
    auth:
      type: none
      entity: Missing
      roles: [Admin, Admin]
  `;

  it("skips rules 2 and 3 and the role-default checks, keeps rules 4 and 5, and warns about permissions and password", () => {
    expectReports(text, [
      { path: "entities.Account.fields.password", line: 5, column: 7, severity: "warning", says: "'password' field" },
      { path: "entities.Account.permissions", line: 7, column: 5, severity: "warning", says: "every operation is open" },
      { path: "entities.Account.permissions.read[0]", line: 8, column: 14, says: "role 'Ghost' is not declared" },
      { path: "auth.roles[1]", line: 12, column: 18, says: "declared twice" },
    ]);
  });

  it("resolves a model without auth when only warnings remain", () => {
    const result = validateDomainText(text.replace("Ghost", "Admin").replace("[Admin, Admin]", "[Admin]"));
    expect(result.errorCount).toBe(0);
    expect(result.warningCount).toBe(2);
    expect(result.model?.auth).toBeNull();
    expect(result.model?.hasAuth).toBe(false);
  });
});

describe("YAML problems", () => {
  it("reports a syntax error at the parser's position and stops there", () => {
    const text = yaml`
      name: blog
      entities:
        User: { fields: { email: string
      auth:
        type: jwt
    `;
    const diagnostics = reported(text);
    expect(diagnostics).toEqual([{ path: "(root)", line: 4, column: 1, severity: "error", message: expect.stringContaining("Flow map") }]);
  });

  it("reports a tab used as indentation", () => {
    expectReports("name: blog\nentities:\n\tPost: {}\n", [{ path: "(root)", line: 3, column: 1, says: "Tabs" }]);
  });

  it("reports an alias without an anchor instead of throwing", () => {
    expectReports("name: *missing\nentities: {}\nauth: { type: none }\n", [
      { path: "(root)", line: 1, column: 7, says: "alias '*missing' has no anchor before it" },
    ]);
  });

  it("reports aliases that expand too many times instead of throwing", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (const [previous, name] of [
      ["a", "b"],
      ["b", "c"],
      ["c", "d"],
    ])
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    const result = validateDomainText(`${levels.join("\n")}\n`);
    expect(result.model).toBeNull();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: "error", message: "aliases expand too many times" })]);
  });

  it("treats an empty file as a map missing every required key", () => {
    expectReports("", [
      { path: "name", line: 1, column: 1, says: "missing required key 'name'" },
      { path: "entities", line: 1, column: 1, says: "missing required key 'entities'" },
      { path: "auth", line: 1, column: 1, says: "missing required key 'auth'" },
    ]);
  });

  it("reports a document that is not a map", () => {
    expectReports("- name\n- auth\n", [{ path: "(root)", line: 1, column: 1, says: "expected a map, got a list" }]);
  });
});

describe("several problems in one file", () => {
  it("reports all of them at once, in source order", async () => {
    const text = await readFile(fixturePath("invalid.domain.yaml"), "utf8");
    const result = validateDomainText(text);
    expectReports(text, [
      { path: "entities.User.fields.email.required", line: 5, column: 40, says: "expected true or false" },
      { path: "entities.User.permissions.read[1]", line: 8, column: 21, says: "role 'Ghost' is not declared" },
      { path: "entities.User.permissions.read[2]", line: 8, column: 28, severity: "warning", says: "'@Friends'" },
      { path: "auth.type", line: 10, column: 9, says: "planned but not implemented" },
      { path: "auth.roles[1]", line: 11, column: 18, says: "declared twice" },
    ]);
    expect(result.errorCount).toBe(4);
    expect(result.warningCount).toBe(1);
  });

  it("accepts the README's blog example", async () => {
    const result = validateDomainText(await readFile(fixturePath("blog.domain.yaml"), "utf8"));
    expect(result.diagnostics).toEqual([]);
    expect(result.model?.name).toBe("blog");
  });
});
