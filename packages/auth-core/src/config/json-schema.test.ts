import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fixturePath } from "../../test/fixtures/domain-text.js";
import { domainJsonSchema } from "./json-schema.js";

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | false;
  propertyNames?: Schema;
  items?: Schema;
  anyOf?: Schema[];
};

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

/** The subset of JSON Schema that domainJsonSchema() uses; returns the paths that fail. */
function schemaErrors(schema: Schema, value: unknown, path = "$"): string[] {
  if (schema.anyOf)
    return schema.anyOf.some((option) => schemaErrors(option, value, path).length === 0) ? [] : [`${path}: no anyOf option`];
  const errors: string[] = [];
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const actual = typeOf(value);
  if (types.length > 0 && !types.some((type) => type === actual || (type === "number" && actual === "integer"))) {
    return [`${path}: expected ${types.join("|")}, got ${actual}`];
  }
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: not in enum`);
  if (schema.pattern && typeof value === "string" && !new RegExp(schema.pattern).test(value)) errors.push(`${path}: pattern`);
  if (schema.minimum !== undefined && typeof value === "number" && value < schema.minimum) errors.push(`${path}: minimum`);
  if (Array.isArray(value) && schema.items) {
    for (const [index, item] of value.entries()) errors.push(...schemaErrors(schema.items, item, `${path}[${index}]`));
  }
  if (actual === "object") {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) errors.push(`${path}.${key}: required`);
    for (const [key, child] of Object.entries(record)) {
      if (schema.propertyNames) errors.push(...schemaErrors(schema.propertyNames, key, `${path}.${key} (name)`));
      const property = schema.properties?.[key] ?? schema.additionalProperties;
      if (property === false) errors.push(`${path}.${key}: not allowed`);
      else if (property) errors.push(...schemaErrors(property, child, `${path}.${key}`));
    }
  }
  return errors;
}

describe("domainJsonSchema", () => {
  const schema = domainJsonSchema();

  it("matches docs/domain.schema.json (run `npm run schema -w @domain-auth/core` to update it)", async () => {
    const written = JSON.parse(await readFile(new URL("../../../../docs/domain.schema.json", import.meta.url), "utf8"));
    expect(written).toEqual(schema);
  });

  it("is a draft 2020-12 schema for an object with name, entities and auth", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema).toMatchObject({ type: "object", required: ["name", "entities", "auth"], additionalProperties: false });
  });

  it("accepts the README's blog example", async () => {
    const blog = parse(await readFile(fixturePath("blog.domain.yaml"), "utf8"));
    expect(schemaErrors(schema as Schema, blog)).toEqual([]);
  });

  it.each([
    ["an unknown root key", { extra: 1 }, "$.extra: not allowed"],
    ["a planned auth type", { auth: { type: "cookie" } }, "$.auth.type: not in enum"],
    ["an unknown field type", { entities: { Post: { fields: { title: "strin" } } } }, "$.entities.Post.fields.title: no anyOf option"],
    ["a lower-case entity name", { entities: { post: { fields: {} } } }, "$.entities.post (name): pattern"],
    ["an invalid role", { auth: { type: "jwt", roles: ["a-b"] } }, "$.auth.roles[0]: pattern"],
    [
      "an unknown operation",
      { entities: { Post: { fields: {}, permissions: { list: [] } } } },
      "$.entities.Post.permissions.list: not allowed",
    ],
  ])("rejects %s", async (_, change, error) => {
    const blog = parse(await readFile(fixturePath("blog.domain.yaml"), "utf8"));
    expect(schemaErrors(schema as Schema, { ...blog, ...change })).toContain(error);
  });
});
