import type { EntityModel, FieldModel } from "../config/index.js";
import type { JsonSchema } from "../endpoints/json-schema.js";
import { LIST_PARAMETERS } from "../endpoints/list-parameters.js";
import { parameterObject } from "../endpoints/query.js";
import { listFieldsOf } from "../store/list-fields.js";

/** A filter's values as the query takes them: `true`/`false`, a declared value or an id; `""` (none) on an optional field. */
function filterSchema(field: FieldModel): JsonSchema {
  const none = field.required ? [] : [""];
  if (field.type === "boolean") return { type: "string", enum: ["true", "false", ...none] };
  if (field.values) return { type: "string", enum: [...field.values, ...none] };
  return { type: "string", ...(field.required ? { minLength: 1 } : {}), maxLength: 128, pattern: "^[^\\u0000]*$" };
}

/** The `where.<field>` parameter of a filterable field. */
function filterParameter(field: FieldModel): JsonSchema {
  const none = field.required ? "" : "; empty: only records without one";
  return {
    name: `where.${field.name}`,
    in: "query",
    required: false,
    schema: filterSchema(field),
    description: `Only records whose \`${field.name}\` is this${none}. Filters combine: every one must hold.`,
  };
}

/**
 * The query parameters of an entity's list (docs/api.md#lists): {@link LIST_PARAMETERS}, `sort`
 * with the entity's sort keys, `q` only where there are fields to search, and one `where.<field>`
 * per filterable field.
 */
export function listParametersOf(entity: EntityModel): JsonSchema[] {
  const fields = listFieldsOf(entity);
  const keys = [...fields.sort.keys()].flatMap((key) => [key, `-${key}`]);
  const declared = LIST_PARAMETERS.filter((parameter) => parameter.name !== "q" || fields.search.length > 0).map((parameter) => {
    const object = parameterObject(parameter);
    return parameter.name === "sort" ? { ...object, schema: { type: "string", enum: keys, default: "createdAt" } } : object;
  });
  return [...declared, ...[...fields.filter.values()].map(filterParameter)];
}
