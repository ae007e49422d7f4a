import type { ErrorBody } from "@domain-auth/core/policy";
import { collectionPath } from "@domain-auth/core/policy";
import { useCallback, useState } from "react";
import { callApi } from "./api";
import { useLoaded } from "./use-loaded";

/** Records per page in the admin lists (the API allows up to 100). */
export const PAGE_SIZE = 20;

/**
 * What a list holds (docs/api.md#lists): records containing `q` in a text field, in `sort` order
 * (`title`, `-createdAt`), with `where` field values; the default is every record, oldest first.
 */
export interface ListFilter {
  readonly q?: string;
  readonly sort?: string;
  readonly where?: Readonly<Record<string, string>>;
}

/** A page of `GET /api/<segment>` with the controls to move through it. */
export interface PagedList<T> {
  readonly items: readonly T[];
  /** How many records there are in all; `null` when more than the server counts (10,000). */
  readonly total: number | null;
  /** How many records come before this page. */
  readonly offset: number;
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  readonly loading: boolean;
  readonly error: ErrorBody | null;
  readonly next: () => void;
  readonly previous: () => void;
  readonly reload: () => void;
}

/**
 * Loads one page of an entity's records as the signed-in user (anonymously under `auth.type: none`),
 * a page at a time after each page's `nextCursor` (docs/api.md#lists): as fast deep in a million records
 * as on the first page. With `organizationId`, a tenant entity's records of that organization
 * (`/api/orgs/<orgId>/<segment>`). A new `filter` starts again from the first page.
 */
export function usePagedList<T>(segment: string, organizationId?: string, filter: ListFilter = {}): PagedList<T> {
  const filterKey = JSON.stringify([filter.q ?? "", filter.sort ?? "", filter.where ?? {}]);
  // The cursors of the pages shown so far (`undefined` for the first), for the filter they were given under.
  const [trail, setTrail] = useState<{ readonly filter: string; readonly cursors: readonly (string | undefined)[] }>({
    filter: filterKey,
    cursors: [undefined],
  });
  // Another search, sort or filter starts again from the first page.
  const cursors = trail.filter === filterKey ? trail.cursors : [undefined];
  const setCursors = useCallback(
    (change: (cursors: readonly (string | undefined)[]) => readonly (string | undefined)[]) =>
      setTrail((current) => ({ filter: filterKey, cursors: change(current.filter === filterKey ? current.cursors : [undefined]) })),
    [filterKey],
  );
  const [version, setVersion] = useState(0);
  const after = cursors[cursors.length - 1];
  const query = {
    limit: PAGE_SIZE,
    ...(after ? { after } : {}),
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.sort ? { sort: filter.sort } : {}),
    ...(filter.where && Object.keys(filter.where).length > 0 ? { where: filter.where } : {}),
  };
  const path =
    organizationId === undefined ? collectionPath({ segment }, query) : collectionPath({ segment, tenant: true }, query, organizationId);
  // While a newer request runs, the last page stays on show.
  const loaded = useLoaded(JSON.stringify([path, version]), () => callApi<{ items: T[]; total?: number; nextCursor: string | null }>(path));
  const answer = loaded.value;

  const nextCursor = !loaded.loading && answer?.ok ? answer.data.nextCursor : null;
  const next = useCallback(() => {
    if (nextCursor) setCursors((trail) => [...trail, nextCursor]);
  }, [nextCursor, setCursors]);
  const previous = useCallback(() => setCursors((trail) => (trail.length > 1 ? trail.slice(0, -1) : trail)), [setCursors]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return {
    items: answer?.ok ? answer.data.items : [],
    total: answer?.ok ? (answer.data.total ?? null) : 0,
    error: answer && !answer.ok ? answer.error : null,
    loading: loaded.loading,
    offset: (cursors.length - 1) * PAGE_SIZE,
    hasNext: nextCursor !== null,
    hasPrevious: cursors.length > 1,
    next,
    previous,
    reload,
  };
}
