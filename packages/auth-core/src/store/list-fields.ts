import type { EntityModel, FieldModel } from "../config/index.js";

/**
 * What an entity's lists may be searched, sorted and filtered by (docs/api.md#lists): the route
 * checks a query against it, the store builds its SQL from it, the document lists it.
 */
export interface ListFields {
  /** The columns `q` looks in: every `string` field (the auth entity's `email` among them), never a `password` field (on any entity) or a `text` field. */
  readonly search: readonly string[];
  /**
   * The keys `sort` takes, by name: `createdAt`, `updatedAt` (`null`: never empty), then every scalar
   * field (not `text`, not `password`), by its model.
   */
  readonly sort: ReadonlyMap<string, FieldModel | null>;
  /** The fields `where.<field>` takes: `enum`, `boolean` and `ref` fields, and any with a closed list of values (the auth entity's `role`). */
  readonly filter: ReadonlyMap<string, FieldModel>;
}

/** The record times every list may be sorted by: never empty, so their order needs no place for `NULL`. */
export const TIME_SORT_KEYS = ["createdAt", "updatedAt"] as const;

/** Field types with one value a row can be ordered by; `text` is left out (long values, no index worth its cost). */
const SORTED_TYPES: ReadonlySet<string> = new Set(["string", "integer", "number", "boolean", "datetime", "enum", "ref"]);
const FILTERED_TYPES: ReadonlySet<string> = new Set(["enum", "boolean", "ref"]);

const known = new WeakMap<EntityModel, ListFields>();

/** The fields an entity's lists may be searched, sorted and filtered by (made once per entity). */
export function listFieldsOf(entity: EntityModel): ListFields {
  const found = known.get(entity);
  if (found) return found;
  // A field named `password` is never answered, on any entity (records/serialize.ts): a search, a sort
  // or a cursor holding its value would tell it. The auth entity's is a hash in another column anyway.
  const fields = entity.fields.filter((field) => field.name !== "password");
  const made: ListFields = {
    search: fields.filter((field) => field.type === "string").map((field) => field.name),
    sort: new Map<string, FieldModel | null>([
      ...TIME_SORT_KEYS.map((key) => [key, null] as const),
      ...fields.filter((field) => SORTED_TYPES.has(field.type)).map((field) => [field.name, field] as const),
    ]),
    filter: new Map(
      fields.filter((field) => FILTERED_TYPES.has(field.type) || field.values !== undefined).map((field) => [field.name, field]),
    ),
  };
  known.set(entity, made);
  return made;
}

/** Whether a sort key's stored values are numbers (`integer`, `number`, `boolean` as 0/1) rather than text. */
export function sortsAsNumber(field: FieldModel | null): boolean {
  return field !== null && (field.type === "integer" || field.type === "number" || field.type === "boolean");
}

/**
 * Whether a cursor's value is one the sort key's column can hold, so the database compares it
 * rather than refusing it: text for text columns, a finite number for `number`, a safe integer for
 * `integer` (what the API stores), 0 or 1 for `boolean`; `null` (records without a value) on a
 * declared field only.
 */
export function holdsSortValue(field: FieldModel | null, value: unknown): boolean {
  if (value === null) return field !== null;
  if (!sortsAsNumber(field)) return typeof value === "string";
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (field?.type === "boolean") return value === 0 || value === 1;
  return field?.type === "number" || Number.isSafeInteger(value);
}
