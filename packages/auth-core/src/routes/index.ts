import type { AuthOperationId } from "../endpoints/catalog.js";
import type { OperationDefinition } from "../endpoints/operation.js";
import {
  acceptInvitation,
  changeMemberRole,
  createOrganization,
  deleteOrganization,
  getOrganization,
  inviteMember,
  listInvitations,
  listMembers,
  listOrganizations,
  removeMember,
  revokeInvitation,
  updateOrganization,
} from "../organizations/routes.js";
import { linkIdentity, listIdentities, listProviders, providerCallback, startProviderSignIn, unlinkIdentity } from "../providers/routes.js";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.js";
import { listEvents, summarizeEvents } from "./events.js";
import { forgotPassword } from "./forgot-password.js";
import { login } from "./login.js";
import { loginMfa } from "./login-mfa.js";
import { loginPasskey, loginPasskeyOptions } from "./login-passkey.js";
import { logout } from "./logout.js";
import { me } from "./me.js";
import { confirmTotp, disableTotp, startTotp, totpStatus } from "./mfa-totp.js";
import { addPasskey, listPasskeys, passkeyOptions, removePasskey } from "./passkeys.js";
import { regenerateRecoveryCodes } from "./recovery-codes.js";
import { refresh } from "./refresh.js";
import { register } from "./register.js";
import { resetPassword } from "./reset-password.js";
import { listSessions, revokeSession, revokeSessions } from "./sessions.js";
import { setup, setupStatus } from "./setup.js";
import { resendVerification, verifyEmail } from "./verify-email.js";

/**
 * The handler of every auth operation of the endpoint catalog, by operation id (server only: they
 * reach the store). The compiler asks for each operation of the catalog, under its own id.
 */
export const AUTH_OPERATIONS: { readonly [Id in AuthOperationId]: OperationDefinition<Id> } = {
  listOrganizations,
  createOrganization,
  getOrganization,
  updateOrganization,
  deleteOrganization,
  listMembers,
  changeMemberRole,
  removeMember,
  listInvitations,
  inviteMember,
  revokeInvitation,
  acceptInvitation,
  login,
  loginMfa,
  loginPasskeyOptions,
  loginPasskey,
  register,
  me,
  listProviders,
  startProviderSignIn,
  providerCallback,
  listIdentities,
  linkIdentity,
  unlinkIdentity,
  setupStatus,
  setup,
  logout,
  refresh,
  listSessions,
  revokeSessions,
  revokeSession,
  forgotPassword,
  resetPassword,
  verifyEmail,
  resendVerification,
  totpStatus,
  startTotp,
  disableTotp,
  confirmTotp,
  regenerateRecoveryCodes,
  passkeyOptions,
  listPasskeys,
  addPasskey,
  removePasskey,
  listEvents,
  summarizeEvents,
  listApiKeys,
  createApiKey,
  revokeApiKey,
};
