/** Data read from `domain.yaml` before the schema has vouched for its shape. */
export type Loose = Record<string, unknown>;

/** `true` for a plain map (not `null`, not a list). */
export function isRecord(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as a map, or `undefined` when it is anything else. */
export function asRecord(value: unknown): Loose | undefined {
  return isRecord(value) ? value : undefined;
}

/** The strings of a list, skipping other items; `[]` when the value is not a list. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The declaration of one field of an entity, when it is a map. */
export function fieldOf(entity: Loose | undefined, name: string): Loose | undefined {
  return asRecord(asRecord(entity?.fields)?.[name]);
}
