import type { Kysely } from "kysely";
import type { RequestEvents } from "../accounts/security-events.js";
import { enforce } from "../http/errors.js";
import { checkLastOwner, firstRoleOf } from "../policy/organizations.js";
import type { AnyDB } from "../store/database.js";
import type { Organizations } from "./organizations.js";

/** Who a user's deletion is about, and who deletes them. */
interface Deletion {
  readonly user: { readonly id: string; readonly email: string };
  readonly actorId: string | null;
  readonly sessionId: string | null;
}

/**
 * Inside the transaction that deletes a user: their memberships go (docs/organizations.md#deleting-a-user).
 * The last holder of an organization's first role cannot be deleted while others remain (409
 * `LAST_OWNER`). An organization left with no member is deleted with them when it holds no
 * records; otherwise it stays, and a `member.removed` event with `detail.orphaned` tells the setup role.
 */
export async function leaveAllOrganizations(
  trx: Kysely<AnyDB>,
  organizations: Organizations,
  events: RequestEvents,
  deletion: Deletion,
): Promise<void> {
  const { store, rules, tenants } = organizations;
  const first = firstRoleOf(rules);
  for (const { organizationId, role } of await store.membershipsOf(trx, deletion.user.id)) {
    if (!(await store.lock(trx, organizationId))) continue;
    const members = store.within(trx, organizationId);
    const remaining = (await members.count()) - 1;
    if (remaining > 0) enforce(checkLastOwner(rules, role, null, await members.count(first)));
    await members.remove(deletion.user.id);
    await members.revokeInvitationsBy(deletion.user.id);
    const orphaned = remaining === 0 && (await store.holdsRecords(trx, organizationId, tenants));
    const about = { userId: deletion.user.id, email: deletion.user.email, actorId: deletion.actorId, sessionId: deletion.sessionId };
    await events.write(trx, { type: "member.removed", ...about, detail: { organizationId, role, left: false, orphaned } });
    if (remaining === 0 && !orphaned) {
      await store.removeLocked(trx, organizationId);
      await events.write(trx, { type: "organization.deleted", ...about, detail: { organizationId } });
    }
  }
}
