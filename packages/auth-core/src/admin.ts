/**
 * `@domain-auth/core/admin`: the tools beneath an instance, for commands and scripts that work on
 * a database directly (the wizard's `admin` command, migrations, benchmarks): the record store,
 * the migrations, the password hasher, the token service and the rules they apply.
 *
 * @example
 * import { ensureAdministrator } from "@domain-auth/core/admin";
 */
export { type AdministratorResult, ensureAdministrator, resetSecondFactors } from "./admin-commands.js";
export type { BcryptChoice, BcryptImplementation, BcryptLibrary } from "./password/bcrypt-library.js";
export {
  createPasswordHasher,
  HashQueueFullError,
  type HashReservation,
  type PasswordHasher,
  type PasswordHasherOptions,
} from "./password/hasher.js";
export { emailProblem, normalizeEmail } from "./records/email.js";
export { serializeRecord } from "./records/serialize.js";
export { type Database, type OpenDatabaseOptions, openDatabase } from "./store/database.js";
export { migrate } from "./store/migrate.js";
export { RecordStore, SetupCompleteError, UniqueConflictError } from "./store/record-store.js";
export { type BlockingReference, MissingRefError, ReferencedError, type Referrer, type RefTarget } from "./store/references.js";
export type { StoredRecord } from "./store/rows.js";
export { createTokenService, type IssuedToken, type TokenClaims, type TokenService } from "./tokens/tokens.js";
