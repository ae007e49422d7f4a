/**
 * `@domain-auth/core/policy`: what a browser needs to ask the server's questions, with no
 * Node-only import anywhere below it (a test bundles it for the browser).
 *
 * - Every permission rule of docs/api.md#permissions as a pure function (records and values passed in, nothing
 *   read or written): routes turn a refusal into an error response, pages show only the actions
 *   the server would allow.
 * - The error codes and body of the API, the limits forms show and the API's paths (from the
 *   endpoint catalog). The catalog itself is `@domain-auth/core/endpoints`, the auth pages
 *   `@domain-auth/core/vocabulary`, the password rules `@domain-auth/core/password`: each name has
 *   one home.
 *
 * @example
 * import { apiPaths, holdsSetupRole, mayPerform } from "@domain-auth/core/policy";
 */
// The answers of the API, as types only: the pages read them as the server makes them (nothing is bundled).
export type { SetupStatus } from "./accounts/setup-view.js";
export type { SessionTokens, SignedIn } from "./accounts/signed-in-view.js";
export type { ApiKeyView, CreatedApiKey } from "./api-keys/api-key-view.js";
export {
  ACCEPT_INVITATION_PATH,
  type ApiPaths,
  apiKeyPath,
  apiPaths,
  collectionPath,
  type EventsQuery,
  eventsPath,
  identityPath,
  itemPath,
  type ListQuery,
  OPENAPI_PATH,
  ORGANIZATIONS_PATH,
  organizationPath,
  passkeyPath,
  providerSignInPath,
  sessionPath,
  userApiKeysPath,
  userSessionsPath,
} from "./endpoints/api-paths.js";
export type { EventSummary } from "./events/event-summary.js";
export {
  EVENT_PAGE_LIMITS,
  EVENT_SUMMARY_WINDOWS,
  type EventDetail,
  type EventSummaryWindow,
  isSecurityEventType,
  SECURITY_EVENT_TYPES,
  type SecurityEventType,
} from "./events/event-types.js";
export type { EventPage, SecurityEvent } from "./events/event-view.js";
export { ERROR_CODES, type ErrorBody, type ErrorCode, type Issue } from "./http/errors.js";
export { ACCOUNT_TOKEN_LIFETIMES, type AccountTokenKind } from "./mail/lifetimes.js";
export type { PasskeySummary } from "./mfa/passkey-view.js";
export type { MfaChallenge, MfaEnrollment } from "./mfa/second-step-view.js";
export type { RecoveryCodesAnswer, TotpEnrolment, TotpStatus } from "./mfa/totp-view.js";
export type {
  Invitation,
  Member,
  MembershipAnswer,
  Organization,
  OrganizationSummary,
} from "./organizations/organization-view.js";
export {
  API_KEY_LIMITS,
  API_KEY_OPERATIONS,
  API_KEY_PREFIX,
  apiKeyScopes,
  checkKeyScope,
  isApiKey,
  scopeOf,
} from "./policy/api-keys.js";
export { type AuthorizeOptions, authorize, type Decision, type MayPerformOptions, mayPerform } from "./policy/authorize.js";
export {
  type CredentialChanges,
  changesOwnCredentials,
  checkCredentialWriter,
  checkCurrentPassword,
  credentialChanges,
} from "./policy/credentials.js";
export { checkEventReader, eventSubject } from "./policy/events.js";
export { checkFieldGuards, guardedFields } from "./policy/field-guards.js";
export { afterSignIn, DEFAULT_AFTER_SIGN_IN, signInPath } from "./policy/next-path.js";
export {
  actorOf,
  checkActOnMember,
  checkCreateOrganization,
  checkFirstRole,
  checkGrant,
  checkManages,
  firstRoleOf,
  grantsMember,
  MAX_ORGANIZATION_NAME_LENGTH,
  type Membership,
  type OrganizationRules,
  SLUG_PATTERN,
} from "./policy/organizations.js";
export { type Access, checkOwnership, ownsRecord } from "./policy/ownership.js";
export { type PermissionSummary, summarizePermission } from "./policy/permission-summary.js";
export {
  MFA_TOKEN_TTL_SECONDS,
  mustEnrolSecondFactor,
  SECOND_FACTOR_METHODS,
  type SecondFactorAuth,
  type SecondFactorMethod,
} from "./policy/second-factor.js";
export { checkSessionRevoker } from "./policy/sessions.js";
export { checkLastAdmin, checkSetupRoleUser, holdsSetupRole, removesSetupRoleHolder, type UserWrite } from "./policy/setup-role.js";
export type { Caller, PolicyAuth, PolicyEntity, PolicyRecord } from "./policy/subjects.js";
export { ALLOWED, type Refusal, type RefusalCode, type Verdict } from "./policy/verdict.js";
export { isProviderError, PROVIDER_ERRORS, type ProviderError } from "./providers/provider-errors.js";
export type { IdentityView, LinkStarted, ProviderSummary } from "./providers/provider-view.js";
export { MAX_EMAIL_LENGTH } from "./records/email.js";
export { LIST_PAGE_LIMITS } from "./records/list-page.js";
export type { SessionView } from "./sessions/session-view.js";
