"use client";

import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { userHref } from "@/lib/domain-auth/admin-sections";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { fieldLabel } from "@/lib/domain-auth/format";
import { usePagedList } from "@/lib/domain-auth/paged-list";
import type { UserProfile } from "@/lib/domain-auth/profile";
import { useUserActions } from "@/lib/domain-auth/user-actions";
import { FormError } from "./form-error";
import { Pager } from "./pager";
import { ReauthPrompt } from "./reauth-prompt";
import { RecordValue } from "./record-value";
import { RecordsToolbar, SortableHeader, type SortOrder } from "./records-toolbar";

/** A user's role as a choice of the domain's roles, and the button that gives the chosen one. */
export function RoleForm({
  roles,
  user,
  onSubmit,
}: {
  readonly roles: readonly string[];
  readonly user: UserProfile;
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form className="da-inline-form" onSubmit={onSubmit}>
      <select name="role" aria-label={`Role of ${user.email}`} defaultValue={user.role ?? ""}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
        <option value="">No role</option>
      </select>
      <button type="submit" className="da-button" aria-label={`Change role of ${user.email}`}>
        Change role
      </button>
    </form>
  );
}

/** "Sign out everywhere" for one user: its name says whom ("Sign out ann@example.com everywhere"), its text stays short. */
export function SignOutEverywhereButton({ email, onClick }: { readonly email: string; readonly onClick: () => void }) {
  return (
    <button type="button" className="da-button da-contains-hidden" onClick={onClick}>
      <span>
        Sign out <span className="da-visually-hidden">{email} </span>everywhere
      </span>
    </button>
  );
}

/** The role filter's value for users without a role (`where.role=`): no role name (an identifier) looks like it; `""` is any role. */
const NO_ROLE = "-none-";

/** The role filter beside the search box: any role, each of the domain's, or none. */
function RoleFilter({
  roles,
  value,
  onChange,
}: {
  readonly roles: readonly string[];
  readonly value: string;
  readonly onChange: (role: string) => void;
}) {
  const id = useId();
  return (
    <div className="da-inline-form">
      <label htmlFor={id}>Role</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Any role</option>
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
        <option value={NO_ROLE}>No role</option>
      </select>
    </div>
  );
}

/** The order of the list as the API takes it: `email`, `-createdAt`. */
const sortParameter = (sort: SortOrder | null) => (sort ? `${sort.direction === "descending" ? "-" : ""}${sort.column}` : undefined);

/**
 * The admin's Users page: every user, searched by e-mail (and the other text fields), filtered by
 * role and sorted by e-mail or by when they joined, a page at a time; each e-mail opens the user's
 * page, each row changes the role and, where the domain has `sessions`, signs the user out everywhere.
 */
export function UsersTable({ auth }: { readonly auth: AuthView }) {
  const headingId = useId();
  const [search, setSearch] = useState("");
  const [role, setRole] = useState("");
  const [sort, setSort] = useState<SortOrder | null>(null);
  const order = sortParameter(sort);
  const list = usePagedList<UserProfile>(auth.segment, undefined, {
    ...(search ? { q: search } : {}),
    ...(order ? { sort: order } : {}),
    ...(role ? { where: { role: role === NO_ROLE ? "" : role } } : {}),
  });
  const actions = useUserActions(auth, (change) => {
    if (change === "role") list.reload();
  });
  const columns = 3 + auth.profileFields.length + (auth.endpoints.sessions ? 1 : 0);
  const filtered = search !== "" || role !== "";

  return (
    <section className="da-records" aria-labelledby={headingId}>
      <h1 id={headingId}>Users</h1>
      <p className="da-status" role="status">
        {actions.status}
      </p>
      <FormError error={actions.failure ?? list.error} />
      {actions.retry ? <ReauthPrompt action="give this role" onPassword={actions.retry} onCancel={actions.cancelRetry} /> : null}
      <RecordsToolbar label="User" onSearch={setSearch} placeholder="Search by e-mail…">
        <RoleFilter roles={auth.roles} value={role} onChange={setRole} />
      </RecordsToolbar>
      <div className="da-table-wrap">
        <table className="da-records-table da-contains-hidden" aria-busy={list.loading}>
          <caption className="da-visually-hidden">Users and their roles</caption>
          <thead>
            <tr>
              <SortableHeader column="email" label="Email" sort={sort} onSort={setSort} />
              {auth.profileFields.map((field) => (
                <th scope="col" key={field.name}>
                  {fieldLabel(field.name)}
                </th>
              ))}
              <th scope="col">Role</th>
              <SortableHeader column="createdAt" label="Created" sort={sort} onSort={setSort} />
              {auth.endpoints.sessions ? <th scope="col">Sessions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.items.length === 0 ? (
              <tr>
                <td colSpan={columns}>{list.loading ? "Loading…" : filtered ? "No users match." : "No users yet."}</td>
              </tr>
            ) : null}
            {list.items.map((user) => (
              <tr key={`${user.id}:${user.role}`}>
                <th scope="row" className="da-record-name">
                  <Link href={userHref(user.id)} className="da-cell-text" title={user.email}>
                    {user.email}
                  </Link>
                </th>
                {auth.profileFields.map((field) => (
                  <td key={field.name}>
                    <RecordValue field={field} value={user[field.name]} truncate />
                  </td>
                ))}
                <td>
                  <RoleForm roles={auth.roles} user={user} onSubmit={(event) => actions.changeRole(event, user)} />
                </td>
                <td className="da-nowrap">
                  <RecordValue field={undefined} value={user.createdAt} />
                </td>
                {auth.endpoints.sessions ? (
                  <td>
                    <SignOutEverywhereButton email={user.email} onClick={() => actions.signOutEverywhere(user)} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label="Users" list={list} />
    </section>
  );
}
