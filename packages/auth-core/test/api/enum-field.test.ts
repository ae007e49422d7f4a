import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { validateDomainText } from "../../src/config/index.js";
import { useInstance } from "../support/instance.js";

/**
 * `enum` fields (`{ type: enum, values: [draft, published] }`): declared and checked in domain.yaml,
 * stored as text, a value outside the list refused with the list named, and the document's schema
 * an `enum` on both databases.
 */

const yamlWith = (status: string) => `name: press
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Reader }
  Article:
    fields:
      title: { type: string, required: true }
      status: ${status}
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
auth:
  type: jwt
  roles: [Admin, Reader]
`;

describe("an enum field in domain.yaml", () => {
  it.each([
    ["{ type: enum }", "an enum field needs 'values: [a, b, …]'"],
    ["{ type: enum, values: [] }", "values must list 1 to 100 strings"],
    ["{ type: enum, values: [draft, draft] }", "value repeats 'draft'"],
    ["{ type: enum, values: [draft, published], default: archived }", "default must be one of its values (draft, published)"],
    ["{ type: string, values: [a] }", "values applies only to enum fields, not string"],
  ])("refuses %s", (declaration, message) => {
    const { model, diagnostics } = validateDomainText(yamlWith(declaration));
    expect(model).toBeNull();
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toContain(message);
  });

  it("resolves its values", () => {
    const { model } = validateDomainText(yamlWith("{ type: enum, values: [draft, published], default: draft }"));
    const field = model?.entities.find((entity) => entity.name === "Article")?.fields.find((candidate) => candidate.name === "status");
    expect(field).toMatchObject({ type: "enum", values: ["draft", "published"], default: "draft" });
  });
});

describe.each(BACKENDS)("an enum field on $name", (backend) => {
  const instance = useInstance(backend.create, yamlWith("{ type: enum, values: [draft, published], default: draft }"));

  it("stores a listed value, fills its default, and refuses any other value naming the list", async () => {
    const admin = await setUpAdmin(instance.api);
    const fresh = await instance.api.post("/api/article", { title: "A" }, { token: admin.token });
    expect(fresh.body.item.status).toBe("draft");
    const updated = await instance.api.patch(`/api/article/${fresh.body.item.id}`, { status: "published" }, { token: admin.token });
    expect(updated.body.item.status).toBe("published");
    expect((await instance.api.get(`/api/article/${fresh.body.item.id}`)).body.item.status).toBe("published");
    for (const status of ["archived", "Draft", 3]) {
      const refused = await instance.api.post("/api/article", { title: "B", status }, { token: admin.token });
      expect(refused.status).toBe(400);
      expect(refused.body.issues).toEqual([{ path: ["status"], message: "must be one of draft, published" }]);
    }
    const document = (await instance.api.get("/api/openapi.json")).body;
    const schema = document.paths["/api/article"].post.requestBody.content["application/json"].schema.properties.status;
    expect(JSON.stringify(schema)).toContain('"enum":["draft","published"]');
  });
});
