import { PAGE_SIZE } from "@/lib/domain-auth/paged-list";

/** "Showing 1–20 of 45" with previous and next buttons; nothing when everything fits one page. */
export function Pager({
  label,
  offset,
  total,
  onChange,
}: {
  label: string;
  offset: number;
  total: number;
  onChange: (offset: number) => void;
}) {
  if (total <= PAGE_SIZE && offset === 0) return null;
  const last = Math.min(offset + PAGE_SIZE, total);
  return (
    <nav className="da-pager" aria-label={`${label} pages`}>
      <button type="button" className="da-button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </button>
      <span>
        {total === 0 ? 0 : offset + 1}–{last} of {total}
      </span>
      <button type="button" className="da-button" disabled={last >= total} onClick={() => onChange(offset + PAGE_SIZE)}>
        Next
      </button>
    </nav>
  );
}
