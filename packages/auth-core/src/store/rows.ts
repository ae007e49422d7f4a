import type { EntityModel } from "../config/index.js";
import { dataFields } from "./columns.js";

/** A record as the API sees it: field values by name, plus `id`, `createdAt`, `updatedAt`. */
export type StoredRecord = Record<string, unknown> & { readonly id: string; readonly createdAt: string; readonly updatedAt: string };

/** A record of the auth entity as a signed-in caller's is read: every column every user has but the password hash. */
export type SignedInUser = StoredRecord & {
  readonly email: string;
  readonly role: string | null;
  readonly tokenVersion: number;
  /** The current email address has been confirmed (a link used, or set by an administrator). */
  readonly emailVerified: boolean;
  /** Some email address of this user has ever been confirmed: sign-in is allowed under `verifyEmail`. */
  readonly everVerified: boolean;
};

/** A record of the auth entity, with the columns every user has. */
export type StoredUser = SignedInUser & { readonly passwordHash: string };

/** A record read from the auth entity's table without its password hash: its role `null` when unset, its token version a number. */
export function toSignedInUser(record: StoredRecord): SignedInUser {
  return {
    ...record,
    email: String(record.email),
    role: typeof record.role === "string" ? record.role : null,
    tokenVersion: Number(record.tokenVersion),
    emailVerified: Number(record.emailVerified) === 1,
    everVerified: Number(record.everVerified) === 1,
  };
}

/** A record read from the auth entity's table as a user, as {@link toSignedInUser} with its password hash. */
export function toStoredUser(record: StoredRecord): StoredUser {
  return { ...toSignedInUser(record), passwordHash: String(record.passwordHash ?? "") };
}

/** Field values on their way into the database (booleans as 0/1). */
export function toColumns(entity: EntityModel, values: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  const types = new Map(entity.fields.map((field) => [field.name, field.type]));
  for (const [name, value] of Object.entries(values)) {
    columns[name] = types.get(name) === "boolean" && typeof value === "boolean" ? Number(value) : value;
  }
  return columns;
}

/** A database row as a record (0/1 back to booleans). Keeps internal columns; the serializer drops them. */
export function fromRow(entity: EntityModel, row: Record<string, unknown>): StoredRecord {
  const record: Record<string, unknown> = { ...row };
  for (const field of dataFields(entity)) {
    const value = row[field.name];
    if (field.type === "boolean" && value !== null && value !== undefined) record[field.name] = Boolean(value);
    else if (value === undefined) record[field.name] = null;
  }
  return record as StoredRecord;
}
