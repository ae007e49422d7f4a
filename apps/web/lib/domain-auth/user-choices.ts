import { collectionPath, LIST_PAGE_LIMITS } from "@domain-auth/core/policy";
import { useMemo } from "react";
import { callApi } from "./api";
import type { UserProfile } from "./profile";
import { useLoaded } from "./use-loaded";

/** The users an admin control offers (a filter, a picker): the first 100 (the API's largest page), by email. */
export function useUserChoices(auth: { readonly segment: string }): readonly UserProfile[] {
  const path = collectionPath(auth, { limit: LIST_PAGE_LIMITS.max });
  const { value } = useLoaded(path, () => callApi<{ items: UserProfile[] }>(path));
  return useMemo(() => (value?.ok ? [...value.data.items].sort((a, b) => a.email.localeCompare(b.email)) : []), [value]);
}
