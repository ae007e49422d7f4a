/**
 * `@domain-auth/core`: what an application calls — an instance from options or from the
 * environment, its servers, the domain model, the OpenAPI document, security headers and mailers.
 * The tools beneath an instance are on `@domain-auth/core/admin`; what a browser may hold on
 * `@domain-auth/core/policy`.
 */
export { PEER_ADDRESS_HEADER } from "./client-address.js";
export {
  type AuthModel,
  type Diagnostic,
  DomainConfigError,
  type DomainModel,
  type DomainValidation,
  type EntityModel,
  type FieldModel,
  formatDiagnostic,
  loadDomain,
  type MfaModel,
  validateDomainText,
} from "./config/index.js";
export type { Endpoint, EndpointFlag, Operation } from "./config/vocabulary.js";
export { type Auth, type CreateAuthOptions, createAuth } from "./create-auth.js";
export { OPENAPI_PATH } from "./endpoints/api-paths.js";
export { authFromEnv, type CreateAuthFromEnvOptions, createAuthFromEnv } from "./env.js";
export type { EventDraft, EventListener, EventLog, EventPage } from "./events/event-log.js";
export { type EventDetail, SECURITY_EVENT_TYPES, type SecurityEvent, type SecurityEventType } from "./events/event-types.js";
export { type ApiRequest, pathOf } from "./http/api-request.js";
export type { CorsOrigins } from "./http/cors.js";
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
export type { PageSessions, Profile, RequestHeaders, SessionRenewal } from "./instance/page-sessions.js";
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
export { type OpenApiDocument, openApiDocument } from "./openapi/index.js";
export { ConfigurationError } from "./options.js";
export { type AuthEnvironment, type AuthSettings, EnvironmentError, readSettings } from "./settings.js";
export { startLines } from "./start-lines.js";
export type { Database } from "./store/database.js";
