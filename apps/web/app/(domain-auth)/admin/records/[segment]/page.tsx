import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminRecords } from "@/components/domain-auth/admin-records";
import { pluralName } from "@/lib/domain-auth/admin-sections";
import { loadPageState } from "@/lib/domain-auth/page-access";

/** The entity at a segment of the path, `null` for none (a tenant entity's records live in its organizations). */
async function entityAt(params: Promise<{ segment: string }>) {
  const { segment } = await params;
  const { view } = await loadPageState();
  return view.entities.find((entity) => entity.segment === segment && !entity.tenant) ?? null;
}

export async function generateMetadata({ params }: { readonly params: Promise<{ segment: string }> }): Promise<Metadata> {
  const entity = await entityAt(params);
  return { title: entity ? pluralName(entity.name) : "Not found" };
}

/** An entity's records: search, sort, pages, and what the caller may do with them. */
export default async function RecordsPage({ params }: { readonly params: Promise<{ segment: string }> }) {
  const entity = await entityAt(params);
  if (!entity) notFound();
  return <AdminRecords segment={entity.segment} />;
}
