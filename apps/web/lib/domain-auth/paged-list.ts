import { collectionPath } from "@domain-auth/core/policy";
import { useCallback, useEffect, useState } from "react";
import { type ApiError, callApi } from "./api";

/** Records per page in the admin lists (the API allows up to 100). */
export const PAGE_SIZE = 20;

/** A page of `GET /api/<segment>` with the controls to move through it. */
export interface PagedList<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly offset: number;
  readonly loading: boolean;
  readonly error: ApiError | null;
  readonly showOffset: (offset: number) => void;
  readonly reload: () => void;
}

/** Loads one page of an entity's records with the caller's token (none under `auth.type: none`). */
export function usePagedList<T>(segment: string, token: string | null): PagedList<T> {
  const [offset, setOffset] = useState(0);
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ items: readonly T[]; total: number; error: ApiError | null; loading: boolean }>({
    items: [],
    total: 0,
    error: null,
    loading: true,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger.
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    callApi<{ items: T[]; total: number }>(collectionPath({ segment }, { limit: PAGE_SIZE, offset }), { token }).then((result) => {
      if (!current) return;
      if (result.ok) setState({ items: result.data.items, total: result.data.total, error: null, loading: false });
      else setState({ items: [], total: 0, error: result.error, loading: false });
    });
    return () => {
      current = false;
    };
  }, [segment, token, offset, version]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { ...state, offset, showOffset: setOffset, reload };
}
