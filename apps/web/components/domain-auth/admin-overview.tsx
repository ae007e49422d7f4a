"use client";

import { collectionPath } from "@domain-auth/core/policy";
import Link from "next/link";
import type { AdminSection } from "@/lib/domain-auth/admin-sections";
import { callApi } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { summaryTotals, useEventSummary } from "@/lib/domain-auth/event-summary";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { useAdmin } from "./admin-shell";

/** The API list whose `total` a section's card shows: the users, or an entity's records. */
function countedPath(section: AdminSection, auth: AuthView | null): string | null {
  if (section.kind === "users" && auth) return collectionPath({ segment: auth.segment }, { limit: 1 });
  if (section.kind === "entity" && section.entity) return collectionPath(section.entity, { limit: 1 });
  return null;
}

/** One section's card on the overview: its name, how many records it holds where it counts them, a link. */
function SectionCard({
  section,
  auth,
  reader,
}: {
  readonly section: AdminSection;
  readonly auth: AuthView | null;
  readonly reader: string;
}) {
  const path = countedPath(section, auth);
  const loaded = useLoaded(path === null ? null : `${reader}:${path}`, () => callApi<{ total?: number }>(path ?? ""));
  const answer = loaded.value;
  const total = answer?.ok ? answer.data.total : undefined;
  return (
    <li className="da-overview-card">
      <Link href={section.href}>{section.label}</Link>
      {path === null ? null : (
        <span className="da-overview-count">
          {answer === undefined ? "…" : total === undefined ? (answer.ok ? "more than 10,000" : "—") : total.toLocaleString()}
        </span>
      )}
    </li>
  );
}

/** The Activity card: sign-ins and failed attempts of the last 24 hours. */
function ActivityCard({ section, auth }: { readonly section: AdminSection; readonly auth: AuthView }) {
  const { summary } = useEventSummary(auth, "24h");
  const totals = summary ? summaryTotals(summary.buckets) : null;
  return (
    <li className="da-overview-card">
      <Link href={section.href}>{section.label}</Link>
      <span className="da-overview-count">{totals ? totals.signIns.toLocaleString() : "…"}</span>
      <span className="da-field-hint">
        {totals
          ? `sign-ins in the last 24 hours, ${totals.failures.toLocaleString()} failed attempt${totals.failures === 1 ? "" : "s"}`
          : "sign-ins in the last 24 hours"}
      </span>
    </li>
  );
}

/** The admin's first page: a card per section the caller may open, with how many users and records there are. */
export function AdminOverview() {
  const admin = useAdmin();
  const auth = admin.view.auth;
  return (
    <>
      <h1>{auth ? "Admin" : "Records"}</h1>
      <p className="da-lead">
        {admin.user
          ? `Signed in as ${admin.user.email}${admin.user.role ? ` (${admin.user.role})` : ""}.`
          : "Every record of this domain, open to all."}
      </p>
      <ul className="da-overview">
        {admin.sections
          .filter((section) => section.kind !== "overview")
          .map((section) =>
            section.kind === "activity" && auth ? (
              <ActivityCard key={section.href} section={section} auth={auth} />
            ) : (
              <SectionCard key={section.href} section={section} auth={auth} reader={admin.user?.id ?? ""} />
            ),
          )}
      </ul>
    </>
  );
}
