import { ApiError, type Issue } from "../http/errors.js";
import type { EndpointParameter } from "./catalog.js";
import type { JsonSchema } from "./json-schema.js";

/** A declared query parameter's value, or what is wrong with it. */
function queryValue(parameter: EndpointParameter, raw: string): { value: string | number } | { issue: string } {
  if (parameter.type === "integer") {
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
    const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER } = parameter;
    const whole = Number.isSafeInteger(value) && value >= minimum && value <= maximum;
    return whole ? { value } : { issue: `must be a whole number from ${minimum} to ${maximum}` };
  }
  if (parameter.values && !parameter.values.includes(raw)) {
    const { values } = parameter;
    return { issue: values.length <= 8 ? `must be one of: ${values.join(", ")}` : `is not a ${parameter.name} this API knows` };
  }
  const { minLength, maxLength = Number.MAX_SAFE_INTEGER } = parameter;
  if (minLength !== undefined && (raw.length < minLength || raw.length > maxLength)) {
    return { issue: `must be ${minLength} to ${maxLength} characters long` };
  }
  const tooLong = parameter.maxLength !== undefined && raw.length > parameter.maxLength;
  if (tooLong || (parameter.pattern !== undefined && !new RegExp(parameter.pattern).test(raw))) {
    return { issue: "is not a value this API gave or takes" };
  }
  return { value: raw };
}

/**
 * The declared query parameters of a request, parsed (integers as numbers); absent ones are left
 * out. 400 `INVALID_QUERY`, with one issue per parameter that cannot be used.
 */
export function parseQuery(search: URLSearchParams, parameters: readonly EndpointParameter[]): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  const issues: Issue[] = [];
  for (const parameter of parameters) {
    if (parameter.in !== "query") continue;
    const raw = search.get(parameter.name);
    if (raw === null) continue;
    const read = queryValue(parameter, raw);
    if ("issue" in read) issues.push({ path: [parameter.name], message: read.issue });
    else query[parameter.name] = read.value;
  }
  if (issues.length > 0) throw new ApiError("INVALID_QUERY", { issues });
  return query;
}

/** A declared parameter as the OpenAPI document describes it: the same bounds, values and form the server checks. */
export function parameterObject(parameter: EndpointParameter): JsonSchema {
  const { name, in: place, description, type, values, minimum, maximum, pattern, maxLength, minLength } = parameter;
  const schema: JsonSchema = { type: type ?? "string" };
  if (values) schema.enum = [...values];
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  if (parameter.default !== undefined) schema.default = parameter.default;
  if (pattern !== undefined) schema.pattern = pattern;
  if (minLength !== undefined) schema.minLength = minLength;
  if (maxLength !== undefined) schema.maxLength = maxLength;
  return { name, in: place, required: place === "path", schema, description };
}
