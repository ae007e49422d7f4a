import type { Kysely } from "kysely";
import type { AuthServices, RouteContext } from "../context.js";
import { ApiError } from "../http/errors.js";
import { storeError } from "../http/store-errors.js";
import { defaultsFor } from "../records/defaults.js";
import { parseRecordBody } from "../records/parse-body.js";
import type { AnyDB } from "../store/database.js";
import type { SetupMode } from "../store/record-store.js";
import { refTargetsOf } from "../store/references.js";
import { type StoredRecord, type StoredUser, toStoredUser } from "../store/rows.js";
import { SIGN_UP_BODY_OPTIONS } from "./auth-body-schemas.js";

/** Validates a register or setup body: email and password rules, declared fields; other keys (role, id…) ignored. */
export function parseSignUpBody(services: AuthServices, body: Record<string, unknown>): Record<string, unknown> {
  return parseRecordBody(services.auth.entity, body, "create", SIGN_UP_BODY_OPTIONS);
}

/** How {@link createUser} creates a user. */
export interface NewUserOptions {
  readonly role: string | null;
  readonly setup: SetupMode;
  /** Hashes the password (a place reserved in the hash queue, say). @default the hasher's `hash` */
  readonly hash?: (password: string) => Promise<string>;
  /** The email counts as confirmed (the setup administrator; a user an administrator created with a password). */
  readonly verified: boolean;
  /** Runs in the insert's transaction, given the new user, and commits with it: the event that records it. */
  readonly within?: (trx: Kysely<AnyDB>, user: StoredUser) => Promise<void>;
}

/**
 * Creates a user from validated values whose `ref`s were checked: hashes the password (with no
 * lock held, through `hash` when given, such as a place reserved in the hash queue), then inserts
 * with the given role, a first token version and the setup flag, the `ref`s checked again in the
 * insert's transaction. Without a `password` in `values` (an invitation) the user has no usable
 * password: no password matches until one is set through the invitation's link.
 */
export async function createUser(
  context: RouteContext,
  services: AuthServices,
  values: Record<string, unknown>,
  options: NewUserOptions,
): Promise<StoredUser> {
  const entity = services.auth.entity;
  const { password, ...fields } = values;
  const existing = options.setup === "mark-complete" && (await context.store.findByEmail(entity, fields.email as string));
  if (existing) throw new ApiError("EMAIL_TAKEN", { issues: [{ path: ["email"], message: "is already taken" }] });
  const defaults = defaultsFor(entity, fields);
  const passwordHash = typeof password === "string" ? await (options.hash ?? services.hasher.hash)(password) : "";
  const verified = options.verified ? 1 : 0;
  const within = options.within;
  try {
    const record = await context.store.insert(
      entity,
      { ...defaults, ...fields, role: options.role, passwordHash, tokenVersion: 1, emailVerified: verified, everVerified: verified },
      {
        setup: options.setup,
        refs: refTargetsOf(context.model, entity, fields),
        ...(within ? { within: (trx: Kysely<AnyDB>, created: StoredRecord) => within(trx, toStoredUser(created)) } : {}),
      },
    );
    return toStoredUser(record);
  } catch (error) {
    throw storeError(error, { isAuthEntity: true });
  }
}
