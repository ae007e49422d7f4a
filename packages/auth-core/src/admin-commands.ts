import type { Kysely } from "kysely";
import type { Auth } from "./create-auth.js";
import type { EventDraft } from "./events/event-log.js";
import { passwordProblem } from "./password/rules.js";
import { defaultsFor } from "./records/defaults.js";
import { emailProblem, normalizeEmail } from "./records/email.js";
import { serializeRecord } from "./records/serialize.js";
import type { AnyDB } from "./store/database.js";

/** What the admin commands' events say of how they came: no request, no actor. */
const BY_COMMAND = { actorId: null, detail: { via: "admin_command" } } as const;

/** An event the command writes, its detail saying how it came. */
function byCommand(draft: EventDraft): EventDraft {
  return { ...draft, detail: { ...draft.detail, ...BY_COMMAND.detail } };
}

/** Writes an admin command's events in its transaction (none under `auth.type: none`). */
async function writeEvents(auth: Auth, trx: Kysely<AnyDB>, drafts: readonly EventDraft[]): Promise<void> {
  for (const draft of drafts) await auth.tools.events?.write(trx, draft);
}

/** What {@link ensureAdministrator} did. */
export interface AdministratorResult {
  readonly action: "created" | "promoted";
  /** The administrator's profile (never the hash). */
  readonly user: Record<string, unknown>;
}

/**
 * The way back in when setup is closed and no administrator is left: creates a user with the
 * setup role, or gives an existing user the setup role and the new password. Either way the
 * user's earlier tokens stop working and their sessions are revoked. The change is recorded as
 * security events (`user.created`, or `role.changed` and `password.changed`).
 *
 * @throws {Error} with a one-line message for `auth.type: none` or an invalid email or password.
 */
export async function ensureAdministrator(auth: Auth, credentials: { email: string; password: string }): Promise<AdministratorResult> {
  const model = auth.model.auth;
  if (!model || !auth.tools.hasher) throw new Error("this domain has auth.type none: there are no users");
  const email = normalizeEmail(credentials.email);
  const problem = emailProblem(email);
  if (problem) throw new Error(`the email ${problem}`);
  const weak = passwordProblem(credentials.password);
  if (weak) throw new Error(`the password ${weak}`);

  const passwordHash = await auth.tools.hasher.hash(credentials.password);
  const existing = await auth.tools.store.findByEmail(model.entity, email);
  if (existing) {
    const sessions = auth.tools.sessions;
    const user = await auth.tools.store.update(
      model.entity,
      existing.id,
      { role: model.setupRole, passwordHash, emailVerified: 1, everVerified: 1 },
      {
        bumpTokenVersion: true,
        guard: async (trx, current) => {
          await sessions?.store.revokeAllOf(existing.id, sessions.now(), { trx });
          const about = { userId: existing.id, email, ...BY_COMMAND };
          const from = (current.role as string | null) ?? null;
          const roleEvent: EventDraft[] =
            from === model.setupRole ? [] : [{ ...about, type: "role.changed", detail: { ...about.detail, from, to: model.setupRole } }];
          const subject = { userId: existing.id, email, actorId: null, sessionId: null };
          const keys = (await auth.tools.apiKeys?.revokeEvery(trx, subject, "password_set_by_admin")) ?? [];
          await writeEvents(auth, trx, [...roleEvent, { ...about, type: "password.changed" }, ...keys.map(byCommand)]);
        },
      },
    );
    if (!user) throw new Error(`the user ${email} was deleted meanwhile; run the command again`);
    return { action: "promoted", user: serializeRecord(model.entity, user) };
  }
  const defaults = defaultsFor(model.entity, {});
  const user = await auth.tools.store.insert(
    model.entity,
    { ...defaults, email, role: model.setupRole, passwordHash, tokenVersion: 1, emailVerified: 1, everVerified: 1 },
    {
      setup: "mark-complete",
      within: (trx, created) =>
        writeEvents(auth, trx, [
          { type: "user.created", userId: created.id, email, ...BY_COMMAND, detail: { ...BY_COMMAND.detail, role: model.setupRole } },
        ]),
    },
  );
  return { action: "created", user: serializeRecord(model.entity, user) };
}

/**
 * `create-domain-auth admin --reset-mfa <email>`: the way back in for a user who lost their second
 * factor (docs/mfa.md). Removes every factor of the user (TOTP, pending or not, and the recovery
 * codes) and revokes all their sessions, in one transaction with its `mfa.disabled` event; the password stays.
 *
 * @throws {Error} with a one-line message for `auth.type: none` or an email no user has.
 */
export async function resetSecondFactors(auth: Auth, email: string): Promise<{ readonly user: Record<string, unknown> }> {
  const model = auth.model.auth;
  const { mfa, sessions } = auth.tools;
  if (!model || !mfa || !sessions) throw new Error("this domain has auth.type none: there are no users");
  const normalized = normalizeEmail(email);
  const user = await auth.tools.store.findByEmail(model.entity, normalized);
  if (!user) throw new Error(`no user has the email ${normalized}`);
  await mfa.removeAll(user.id, async (trx) => {
    await sessions.store.revokeAllOf(user.id, sessions.now(), { trx });
    await writeEvents(auth, trx, [{ type: "mfa.disabled", userId: user.id, email: user.email, ...BY_COMMAND }]);
  });
  return { user: serializeRecord(model.entity, user) };
}
