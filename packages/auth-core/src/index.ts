export { type AdministratorResult, ensureAdministrator } from "./admin.js";
export { clientAddressOf, PEER_ADDRESS_HEADER } from "./client-address.js";
export {
  type AuthModel,
  type Diagnostic,
  DomainConfigError,
  type DomainModel,
  type DomainValidation,
  type Endpoint,
  type EntityModel,
  type FieldModel,
  formatDiagnostic,
  loadDomain,
  type Operation,
  validateDomainText,
} from "./config/index.js";
export { type Auth, type CreateAuthOptions, createAuth } from "./create-auth.js";
export { authFromEnv, type CreateAuthFromEnvOptions, createAuthFromEnv } from "./env.js";
export { type ApiRequest, pathOf } from "./http/api-request.js";
export { ApiError, ERROR_CODES, type ErrorBody, type ErrorCode, type Issue } from "./http/errors.js";
export { type EdgeErrorOptions, rawErrorResponse, writeError } from "./http/node-errors.js";
export type { Reply } from "./http/responses.js";
export {
  API_SECURITY_HEADERS,
  contentSecurityPolicy,
  createNonce,
  type SecurityHeadersOptions,
  securityHeaders,
} from "./http/security-headers.js";
export { ACCOUNT_TOKEN_LIFETIMES, type AccountTokenKind } from "./mail/lifetimes.js";
export type { MailOptions } from "./mail/mail-service.js";
export {
  createConsoleMailer,
  createSmtpMailer,
  DEFAULT_SMTP_TIMEOUT_MS,
  type Mailer,
  type MailMessage,
  type SmtpMailerOptions,
} from "./mail/mailer.js";
export { createNodeListener, type NodeListener, type ReplyingHandler } from "./node-listener.js";
export { OPENAPI_PATH, type OpenApiDocument, openApiDocument } from "./openapi/index.js";
export { ConfigurationError } from "./options.js";
export {
  createPasswordHasher,
  HashQueueFullError,
  type HashReservation,
  type PasswordHasher,
  type PasswordHasherOptions,
} from "./password/hasher.js";
export { MAX_PASSWORD_BYTES, MIN_PASSWORD_BYTES, passwordProblem } from "./password/rules.js";
export { authorize, type Decision } from "./policy/authorize.js";
export { ownsRecord } from "./policy/ownership.js";
export type { Caller } from "./policy/subjects.js";
export { emailProblem, normalizeEmail } from "./records/email.js";
export { serializeRecord } from "./records/serialize.js";
export { type AuthEnvironment, type AuthSettings, EnvironmentError, readSettings } from "./settings.js";
export { type Database, openDatabase } from "./store/database.js";
export { migrate } from "./store/migrate.js";
export { RecordStore, SetupCompleteError, UniqueConflictError } from "./store/record-store.js";
export { type BlockingReference, MissingRefError, ReferencedError, type Referrer, type RefTarget } from "./store/references.js";
export type { StoredRecord } from "./store/rows.js";
export { createTokenService, type IssuedToken, type TokenClaims, type TokenService } from "./tokens/tokens.js";
