import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { fixturePath, yaml } from "../../test/fixtures/domain-text.js";
import { DomainConfigError } from "./diagnostics.js";
import type { DomainModel, EntityModel } from "./model.js";
import { loadDomain, validateDomainText } from "./validate.js";

function modelOf(text: string): DomainModel {
  const { model, diagnostics } = validateDomainText(text);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  if (!model) throw new Error("expected a model");
  return model;
}

function entity(model: DomainModel, name: string): EntityModel {
  const found = model.entities.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}

function withRoles(roles: string, roleField = ""): string {
  return yaml`
    name: app
    entities:
      User:
        fields:
          email: string
          password: string
          ${roleField}
    auth:
      type: jwt
      roles: ${roles}
  `;
}

describe("resolveDomain", () => {
  it("resolves the README's blog example", async () => {
    const model = modelOf(await readFile(fixturePath("blog.domain.yaml"), "utf8"));
    expect(model.name).toBe("blog");
    expect(model.hasAuth).toBe(true);
    expect(model.auth?.entity.name).toBe("User");
    expect(model.auth?.roles).toEqual(["Admin", "Editor", "Reader"]);
    expect(entity(model, "Post")).toMatchObject({
      segment: "post",
      table: "post",
      ownerField: "author",
      hiddenOwner: false,
      isAuthEntity: false,
    });
    expect(entity(model, "Post").fields.map((field) => field.name)).toEqual(["title", "body", "published", "author"]);
    expect(entity(model, "Post").fields[0]).toEqual({ name: "title", type: "string", required: true, unique: false, maxLength: 200 });
    expect(entity(model, "Post").fields[2]).toMatchObject({ name: "published", type: "boolean", default: false });
    expect(entity(model, "Post").fields[3]).toMatchObject({ name: "author", type: "ref", to: "User" });
  });

  it.each([
    ["User", "user", "user"],
    ["StaffMember", "staff-member", "staff_member"],
    ["APIKey", "api-key", "api_key"],
    ["HTTPLog2", "http-log2", "http_log2"],
  ])("gives %s the segment %s and the table %s", (name, segment, table) => {
    const model = modelOf(yaml`
      name: app
      entities:
        ${name}: { fields: { note: string } }
      auth: { type: none }
    `);
    expect(entity(model, name)).toMatchObject({ segment, table });
  });

  describe("setup role", () => {
    it.each([
      ["[Admin, Editor]", "Admin"],
      ["[Editor, Admin]", "Admin"],
      ["[]", "Admin"],
      ["[Owner, Editor]", "Owner"],
    ])("roles %s → %s", (roles, setupRole) => {
      expect(modelOf(withRoles(roles)).auth?.setupRole).toBe(setupRole);
    });

    it("is Admin when auth.roles is omitted", () => {
      const model = modelOf(yaml`
        name: app
        entities: { User: { fields: { email: string, password: string } } }
        auth: { type: jwt }
      `);
      expect(model.auth?.roles).toEqual([]);
      expect(model.auth?.setupRole).toBe("Admin");
    });
  });

  describe("default role", () => {
    it("is the auth entity's role default", () => {
      expect(modelOf(withRoles("[Admin, Reader]", "role: { type: string, default: Reader }")).auth?.defaultRole).toBe("Reader");
    });

    it("is null when the role field has no default", () => {
      expect(modelOf(withRoles("[Admin, Reader]", "role: string")).auth?.defaultRole).toBeNull();
    });

    it("is null without a role field, which is then added to the auth entity, taking the declared roles", () => {
      const model = modelOf(withRoles("[Admin, Reader]"));
      expect(model.auth?.defaultRole).toBeNull();
      expect(model.auth?.entity.fields.find((field) => field.name === "role")).toEqual({
        name: "role",
        type: "string",
        required: false,
        unique: false,
        values: ["Admin", "Reader"],
      });
    });
  });

  describe("owner field", () => {
    const model = modelOf(yaml`
      name: app
      entities:
        User:
          fields: { email: string, password: string }
          permissions: { read: ["@Owner"], update: ["@Owner"] }
        Note:
          fields: { body: text }
          permissions: { update: ["@Owner"] }
        Post:
          owner: author
          fields: { author: { type: ref, to: User } }
          permissions: { delete: ["@Owner"] }
        Tag:
          fields: { label: string }
      auth: { type: jwt }
    `);

    it("adds a hidden ownerId ref to the auth entity when @Owner is used without owner:", () => {
      expect(entity(model, "Note")).toMatchObject({ ownerField: "ownerId", hiddenOwner: true });
      expect(entity(model, "Note").fields.at(-1)).toEqual({ name: "ownerId", type: "ref", required: false, unique: false, to: "User" });
    });

    it("uses the declared owner field", () => {
      expect(entity(model, "Post")).toMatchObject({ ownerField: "author", hiddenOwner: false });
      expect(entity(model, "Post").fields.map((field) => field.name)).toEqual(["author"]);
    });

    it("has no owner without @Owner, nor on the auth entity", () => {
      expect(entity(model, "Tag")).toMatchObject({ ownerField: null, hiddenOwner: false });
      expect(entity(model, "User")).toMatchObject({ ownerField: null, hiddenOwner: false });
      expect(entity(model, "User").fields.map((field) => field.name)).toEqual(["email", "password", "role"]);
    });
  });

  describe("auth entity permissions (docs/api.md#permissions)", () => {
    it("guards every operation without an entry", () => {
      const model = modelOf(withRoles("[Owner, Member]"));
      expect(model.auth?.entity.permissions).toEqual({
        create: ["Owner"],
        read: ["Owner", "@Owner"],
        update: ["Owner", "@Owner"],
        delete: ["Owner"],
      });
    });

    it("keeps the declared entries, an empty list included", () => {
      const model = modelOf(yaml`
        name: app
        entities:
          User:
            fields: { email: string, password: string }
            permissions: { read: ["@Authenticated"], delete: [] }
        auth: { type: jwt, roles: [Admin] }
      `);
      expect(model.auth?.entity.permissions).toEqual({
        create: ["Admin"],
        read: ["@Authenticated"],
        update: ["Admin", "@Owner"],
        delete: [],
      });
    });

    it("leaves other entities' permissions as declared", () => {
      const model = modelOf(yaml`
        name: app
        entities:
          User: { fields: { email: string, password: string } }
          Note:
            fields: { body: text }
            permissions: { read: ["*"] }
        auth: { type: jwt }
      `);
      expect(entity(model, "Note").permissions).toEqual({ read: ["*"] });
    });
  });

  describe("endpoints", () => {
    it("default to true", () => {
      expect(modelOf(withRoles("[Admin]")).auth?.endpoints).toEqual({
        login: true,
        register: true,
        me: true,
        setup: true,
        logout: true,
        refresh: true,
        sessions: true,
        passwordReset: true,
        verifyEmail: true,
      });
    });

    it("keep the ones switched off", () => {
      const model = modelOf(yaml`
        name: app
        entities: { User: { fields: { email: string, password: string } } }
        auth: { type: jwt, endpoints: { register: false, setup: false, sessions: false } }
      `);
      expect(model.auth?.endpoints).toEqual({
        login: true,
        register: false,
        me: true,
        setup: false,
        logout: true,
        refresh: true,
        sessions: false,
        passwordReset: true,
        verifyEmail: true,
      });
    });
  });

  describe("mfa", () => {
    it("defaults to TOTP and passkeys on, no role required", () => {
      expect(modelOf(withRoles("[Admin]")).auth?.mfa).toEqual({ totp: true, passkeys: true, required: [] });
    });

    it("keeps what the file says", () => {
      const model = modelOf(yaml`
        name: app
        entities: { User: { fields: { email: string, password: string } } }
        auth: { type: jwt, roles: [Admin, Reader], mfa: { passkeys: false, required: [Admin] } }
      `);
      expect(model.auth?.mfa).toEqual({ totp: true, passkeys: false, required: ["Admin"] });
    });
  });

  it("has no auth under auth.type none", () => {
    const model = modelOf(yaml`
      name: app
      entities: { User: { fields: { email: string, password: string } } }
      auth: { type: none, roles: [Admin] }
    `);
    expect(model.auth).toBeNull();
    expect(model.hasAuth).toBe(false);
    expect(entity(model, "User").isAuthEntity).toBe(false);
  });

  it("freezes the whole model", async () => {
    const model = modelOf(await readFile(fixturePath("blog.domain.yaml"), "utf8"));
    const post = entity(model, "Post");
    for (const value of [
      model,
      model.entities,
      model.auth,
      model.auth?.endpoints,
      post,
      post.fields,
      post.fields[0],
      post.permissions,
      post.permissions.read,
    ]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(() => {
      (model as { name: string }).name = "other";
    }).toThrow(TypeError);
    expect(() => (post.fields as unknown[]).push({})).toThrow(TypeError);
  });
});

describe("loadDomain", () => {
  it("returns the model of a valid file", async () => {
    const model = await loadDomain(fixturePath("blog.domain.yaml"));
    expect(model.auth?.defaultRole).toBe("Reader");
  });

  it("throws a DomainConfigError carrying every diagnostic", async () => {
    const file = fixturePath("invalid.domain.yaml");
    const error = await loadDomain(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainConfigError);
    expect((error as DomainConfigError).file).toBe(file);
    expect((error as DomainConfigError).diagnostics).toHaveLength(5);
    expect((error as DomainConfigError).message).toMatch(/invalid .*invalid\.domain\.yaml:5:40 .* \(and 3 more\)$/);
  });

  it("throws a DomainConfigError for a missing file", async () => {
    const error = await loadDomain(fixturePath("missing.domain.yaml")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainConfigError);
    expect((error as DomainConfigError).diagnostics).toEqual([
      { severity: "error", path: [], message: "file not found", line: 1, column: 1 },
    ]);
  });
});
