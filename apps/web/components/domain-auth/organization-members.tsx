"use client";

import { type actorOf, checkActOnMember, checkGrant, checkManages, type OrganizationRules } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import { formatValue } from "@/lib/domain-auth/format";
import { changeMemberRole, type Member, membersPath, removeMember } from "@/lib/domain-auth/organizations";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { FormError } from "./form-error";

/** Who acts on the organization's members: what `actorOf` makes of the caller and their membership. */
export type OrganizationActor = ReturnType<typeof actorOf>;

/** Props of {@link OrganizationMembers}. */
export interface OrganizationMembersProps {
  readonly organizationId: string;
  readonly organizationName: string;
  readonly rules: OrganizationRules;
  readonly actor: OrganizationActor;
  /** The signed-in user's id: their row offers Leave. */
  readonly userId: string;
  /** After the caller's own role changed: the page reads their membership again. */
  readonly onOwnRoleChanged: () => void;
  /** After the caller left the organization. */
  readonly onLeft: () => void;
}

/** The roles `actor` may give a member who holds `current`: within their rank, the member's own role kept as a choice. */
function grantableRoles(rules: OrganizationRules, actor: OrganizationActor, current: string): string[] {
  return rules.roles.filter((role) => role === current || checkGrant(rules, actor, role).allowed);
}

/** A member's role as a choice of the roles the manager may give, and the button that gives the chosen one. */
function MemberRoleForm({
  member,
  roles,
  onSubmit,
}: {
  readonly member: Member;
  readonly roles: readonly string[];
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form className="da-inline-form" onSubmit={onSubmit}>
      <select name="role" aria-label={`Role of ${member.email}`} defaultValue={member.role}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      <button type="submit" className="da-button" aria-label={`Change role of ${member.email}`}>
        Change
      </button>
    </form>
  );
}

/** Props of {@link MemberRow}. */
interface MemberRowProps {
  readonly member: Member;
  readonly organizationName: string;
  /** Whether the row is the signed-in user's own: it offers Leave. */
  readonly self: boolean;
  /** Whether the caller may act on this member: change their role and remove them. */
  readonly actsOn: boolean;
  /** The roles the caller may give this member (see {@link grantableRoles}). */
  readonly roles: readonly string[];
  /** Whether the member's removal (or the caller's leave) waits for confirmation. */
  readonly confirming: boolean;
  readonly onChangeRole: (event: FormEvent<HTMLFormElement>) => void;
  /** Asks for confirmation before removing or leaving. */
  readonly onRemove: () => void;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** One member: their e-mail (marked "you" on the caller's own row), role or role choice, joining date and actions. */
function MemberRow({
  member,
  organizationName,
  self,
  actsOn,
  roles,
  confirming,
  onChangeRole,
  onRemove,
  onConfirm,
  onKeep,
}: MemberRowProps) {
  return (
    <tr>
      <td data-label="Email">
        {member.email}
        {self ? <span className="da-badge">you</span> : null}
      </td>
      <td data-label="Role">
        {actsOn && roles.length > 1 ? <MemberRoleForm member={member} roles={roles} onSubmit={onChangeRole} /> : member.role}
      </td>
      <td data-label="Joined">{formatValue(member.joinedAt)}</td>
      <td className="da-actions">
        {confirming ? (
          <>
            <button type="button" className="da-button da-button-danger" onClick={onConfirm}>
              {self ? "Confirm leave" : "Confirm remove"}
            </button>
            <button type="button" className="da-button" onClick={onKeep}>
              Keep
            </button>
          </>
        ) : self || actsOn ? (
          <button
            type="button"
            className="da-button da-button-danger"
            aria-label={self ? `Leave ${organizationName}` : `Remove ${member.email}`}
            onClick={onRemove}
          >
            {self ? "Leave" : "Remove"}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** Props of {@link MemberPager}. */
interface MemberPagerProps {
  /** Whether a page comes before the one on show. */
  readonly hasPrevious: boolean;
  /** The cursor of the page after the one on show: none on the last page, or while a page loads. */
  readonly nextCursor: string | null;
  readonly onPrevious: () => void;
  readonly onNext: (cursor: string) => void;
}

/** Previous and Next between the pages of members; nothing when they all fit one page. */
function MemberPager({ hasPrevious, nextCursor, onPrevious, onNext }: MemberPagerProps) {
  if (!nextCursor && !hasPrevious) return null;
  return (
    <nav className="da-pager" aria-label="Member pages">
      <button type="button" className="da-button" disabled={!hasPrevious} onClick={onPrevious}>
        Previous
      </button>
      <button type="button" className="da-button" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>
        Next
      </button>
    </nav>
  );
}

/**
 * The page of members on show, the status and failure said above them, and what changes a member's
 * role or removes them. The caller's own role changing, or the caller leaving, is told to the page.
 */
function useMembers({ organizationId, userId, onOwnRoleChanged, onLeft }: OrganizationMembersProps) {
  const [cursors, setCursors] = useState<readonly (string | undefined)[]>([undefined]);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const path = membersPath(organizationId, cursors[cursors.length - 1]);
  const loaded = useLoaded(JSON.stringify([path, version]), () => callApi<{ items: Member[]; nextCursor: string | null }>(path));
  const answer = loaded.value;

  /** Gives `member` the role chosen in the form; a refused change puts the choice back. */
  async function changeRole(event: FormEvent<HTMLFormElement>, member: Member) {
    event.preventDefault();
    const form = event.currentTarget;
    const role = String(new FormData(form).get("role") ?? "");
    if (role === member.role) return;
    const result = await changeMemberRole(organizationId, member.userId, role);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `${member.email} is now ${role}.` : "");
    if (!result.ok) form.reset();
    setVersion((count) => count + 1);
    if (result.ok && member.userId === userId) onOwnRoleChanged();
  }

  /** Removes `member`, once confirmed; the caller's own row leaves the organization. */
  async function remove(member: Member) {
    const leaving = member.userId === userId;
    const result = await removeMember(organizationId, member.userId);
    setConfirming(null);
    setFailure(result.ok ? null : result.error.message);
    if (!result.ok) return;
    if (leaving) return onLeft();
    setStatus(`${member.email} is no longer a member.`);
    setVersion((count) => count + 1);
  }

  return {
    members: answer?.ok ? answer.data.items : [],
    loading: loaded.loading,
    nextCursor: !loaded.loading && answer?.ok ? answer.data.nextCursor : null,
    hasPrevious: cursors.length > 1,
    previous: () => setCursors((trail) => trail.slice(0, -1)),
    next: (cursor: string) => setCursors((trail) => [...trail, cursor]),
    status,
    error: failure ?? (answer && !answer.ok ? answer.error : null),
    confirming,
    setConfirming,
    changeRole,
    remove,
  };
}

/**
 * The organization's members with their roles, a page at a time. Managers (`checkManages`) get a
 * role choice within their rank and Remove for each member not above them; everyone gets Leave on
 * their own row. The last holder of the first role is kept by the API (409 `LAST_OWNER`), said here.
 */
export function OrganizationMembers(props: OrganizationMembersProps) {
  const { organizationName, rules, actor, userId } = props;
  const list = useMembers(props);
  const manages = checkManages(rules, actor).allowed;
  return (
    <section className="da-card" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <p className="da-status" role="status">
        {list.status}
      </p>
      <FormError error={list.error} />
      <div className="da-table-wrap">
        <table className="da-stack-table">
          <caption className="da-visually-hidden">{`Members of ${organizationName} and their roles`}</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.members.length === 0 ? (
              <tr>
                <td colSpan={4}>{list.loading ? "Loading…" : "No members."}</td>
              </tr>
            ) : null}
            {list.members.map((member) => {
              const actsOn = manages && checkActOnMember(rules, actor, member.role).allowed;
              return (
                <MemberRow
                  key={`${member.userId}:${member.role}`}
                  member={member}
                  organizationName={organizationName}
                  self={member.userId === userId}
                  actsOn={actsOn}
                  roles={actsOn ? grantableRoles(rules, actor, member.role) : []}
                  confirming={list.confirming === member.userId}
                  onChangeRole={(event) => list.changeRole(event, member)}
                  onRemove={() => list.setConfirming(member.userId)}
                  onConfirm={() => list.remove(member)}
                  onKeep={() => list.setConfirming(null)}
                />
              );
            })}
          </tbody>
        </table>
      </div>
      <MemberPager hasPrevious={list.hasPrevious} nextCursor={list.nextCursor} onPrevious={list.previous} onNext={list.next} />
    </section>
  );
}
