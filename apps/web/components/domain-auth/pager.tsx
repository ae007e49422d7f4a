import type { PagedList } from "@/lib/domain-auth/paged-list";

/** "Showing 21–40 of 45" (or "of more than 10,000") with previous and next buttons; nothing when everything fits one page. */
export function Pager({
  label,
  list,
}: {
  label: string;
  list: Pick<PagedList<unknown>, "items" | "offset" | "total" | "hasNext" | "hasPrevious" | "next" | "previous">;
}) {
  if (!list.hasNext && !list.hasPrevious) return null;
  const first = list.items.length === 0 ? 0 : list.offset + 1;
  const last = list.offset + list.items.length;
  return (
    <nav className="da-pager" aria-label={`${label} pages`}>
      <button type="button" className="da-button" disabled={!list.hasPrevious} onClick={list.previous}>
        Previous
      </button>
      <span>
        {first}–{last} of {list.total === null ? "more than 10,000" : list.total}
      </span>
      <button type="button" className="da-button" disabled={!list.hasNext} onClick={list.next}>
        Next
      </button>
    </nav>
  );
}
