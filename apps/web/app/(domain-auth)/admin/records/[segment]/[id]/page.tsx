import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminRecord } from "@/components/domain-auth/admin-records";
import { loadPageState } from "@/lib/domain-auth/page-access";

type Params = Promise<{ segment: string; id: string }>;

async function entityAt(params: Params) {
  const { segment } = await params;
  const { view } = await loadPageState();
  return view.entities.find((entity) => entity.segment === segment && !entity.tenant) ?? null;
}

export async function generateMetadata({ params }: { readonly params: Params }): Promise<Metadata> {
  const entity = await entityAt(params);
  return { title: entity ? entity.name : "Not found" };
}

/** One record: every value in full, edit and delete where the caller may. */
export default async function RecordPage({ params }: { readonly params: Params }) {
  const entity = await entityAt(params);
  if (!entity) notFound();
  const { id } = await params;
  return <AdminRecord key={id} segment={entity.segment} id={id} />;
}
