import type { ErrorBody } from "@domain-auth/core/policy";
import { collectionPath } from "@domain-auth/core/policy";
import { useCallback, useEffect, useState } from "react";
import { callApi } from "./api";

/** Records per page in the admin lists (the API allows up to 100). */
export const PAGE_SIZE = 20;

/** A page of `GET /api/<segment>` with the controls to move through it. */
export interface PagedList<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly offset: number;
  readonly loading: boolean;
  readonly error: ErrorBody | null;
  readonly showOffset: (offset: number) => void;
  readonly reload: () => void;
}

/** Loads one page of an entity's records as the signed-in user (anonymously under `auth.type: none`). */
export function usePagedList<T>(segment: string): PagedList<T> {
  const [offset, setOffset] = useState(0);
  const [version, setVersion] = useState(0);
  // The last answer with the request it answers: while a newer request runs, its items stay on show.
  const [loaded, setLoaded] = useState<{ request: string; items: readonly T[]; total: number; error: ErrorBody | null } | null>(null);
  const request = JSON.stringify([segment, offset, version]);

  useEffect(() => {
    let current = true;
    callApi<{ items: T[]; total: number }>(collectionPath({ segment }, { limit: PAGE_SIZE, offset })).then((result) => {
      if (!current) return;
      if (result.ok) setLoaded({ request, items: result.data.items, total: result.data.total, error: null });
      else setLoaded({ request, items: [], total: 0, error: result.error });
    });
    return () => {
      current = false;
    };
  }, [request, segment, offset]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return {
    items: loaded?.items ?? [],
    total: loaded?.total ?? 0,
    error: loaded?.error ?? null,
    loading: loaded?.request !== request,
    offset,
    showOffset: setOffset,
    reload,
  };
}
