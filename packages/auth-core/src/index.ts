/**
 * `@domain-auth/core`: what an application calls — an instance from options or from the
 * environment, its servers, its errors and mailers. Each name has one home: the domain model is on
 * `@domain-auth/core/config`, the OpenAPI document on `./openapi`, security headers on
 * `./security-headers`, the tools beneath an instance (the database, the store) on `./admin`, what a
 * browser may hold (error codes, event types, answers) on `./policy`, page helpers on `./next`.
 */
export { PEER_ADDRESS_HEADER } from "./client-address.js";
export { type Auth, type CreateAuthOptions, createAuth } from "./create-auth.js";
export { authFromEnv, type CreateAuthFromEnvOptions, createAuthFromEnv } from "./env.js";
export type { EventDraft, EventListener, EventLog } from "./events/event-log.js";
export { type ApiRequest, pathOf } from "./http/api-request.js";
export type { CorsOrigins } from "./http/cors.js";
export { ApiError } from "./http/errors.js";
export { type EdgeErrorOptions, rawErrorResponse, writeError } from "./http/node-errors.js";
export type { Reply } from "./http/responses.js";
export type { PageSessions, RequestHeaders, SessionRenewal } from "./instance/page-sessions.js";
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
export { ConfigurationError } from "./options.js";
export { type AuthEnvironment, type AuthSettings, EnvironmentError, readSettings } from "./settings.js";
export { startLines } from "./start-lines.js";
