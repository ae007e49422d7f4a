import {
  API_KEY_OPERATIONS,
  type ApiKeyView,
  apiKeyPath,
  apiPaths,
  type CreatedApiKey,
  type ErrorBody,
  userApiKeysPath,
} from "@domain-auth/core/policy";
import { useCallback, useState } from "react";
import { type ApiResult, callApi } from "./api";
import type { AuthView } from "./domain-view";
import { useLoaded } from "./use-loaded";

/** An API key as `GET api-keys` lists it: never the key itself (docs/api-keys.md). */
export type ApiKey = ApiKeyView;
export type { CreatedApiKey };

/** What a new key is made of. */
export interface ApiKeyDraft {
  readonly name: string;
  /** An ISO 8601 time, or none: the key works until revoked. */
  readonly expiresAt?: string;
  /** None: every entity operation the user's role allows. */
  readonly scopes?: readonly string[];
  /** The user's password, when the session signed in too long ago to make a key without it. */
  readonly currentPassword?: string;
}

type KeysAuth = Pick<AuthView, "segment">;

/** `GET api-keys`: the signed-in user's keys, or (the setup role) `userId`'s. */
export async function listApiKeys(auth: KeysAuth, options: { readonly userId?: string } = {}): Promise<ApiResult<readonly ApiKey[]>> {
  const path = options.userId === undefined ? apiPaths(auth).apiKeys : userApiKeysPath(auth, options.userId);
  const result = await callApi<{ items: ApiKey[] }>(path);
  return result.ok ? { ...result, data: result.data.items } : result;
}

/** The keys a page shows, as loaded: `items` is `null` until the first answer. */
export interface LoadedApiKeys {
  readonly items: readonly ApiKey[] | null;
  readonly error: ErrorBody | null;
  /** Reads the list again (after a key was made or revoked). */
  readonly reload: () => void;
}

/**
 * Loads the signed-in user's keys, or (the setup role) `userId`'s; nothing while `userId` is `""`
 * (no user chosen yet).
 */
export function useApiKeys(auth: KeysAuth, options: { readonly userId?: string } = {}): LoadedApiKeys {
  const [version, setVersion] = useState(0);
  const { userId } = options;
  const request = userId === "" ? null : JSON.stringify([auth.segment, userId ?? null, version]);
  const loaded = useLoaded(request, () => listApiKeys(auth, userId === undefined ? {} : { userId }));

  const reload = useCallback(() => setVersion((count) => count + 1), []);
  // The previous list stays while the same list is read again; another user's shows "Loading…".
  const same = loaded.key !== null && JSON.parse(loaded.key)[1] === (userId ?? null);
  const answer = loaded.value;
  return { items: same && answer?.ok ? answer.data : same ? [] : null, error: answer && !answer.ok ? answer.error : null, reload };
}

/** `POST api-keys`: a new key of the signed-in user; its `key` is in this answer only. */
export function createApiKey(auth: KeysAuth, draft: ApiKeyDraft): Promise<ApiResult<CreatedApiKey>> {
  return callApi<CreatedApiKey>(apiPaths(auth).apiKeys, { method: "POST", body: draft });
}

/** `DELETE api-keys/<id>`: the key stops working at once. */
export function revokeApiKey(auth: KeysAuth, id: string): Promise<ApiResult<null>> {
  return callApi<null>(apiKeyPath(auth, id), { method: "DELETE" });
}

/** The scopes of a domain grouped by entity segment, operations in the order the pages show them: `[["post", ["post:read", …]], …]`. */
export function scopesByEntity(scopes: readonly string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const scope of scopes) {
    const segment = scope.slice(0, scope.lastIndexOf(":"));
    groups.set(segment, [...(groups.get(segment) ?? []), scope]);
  }
  const order = (scope: string) =>
    API_KEY_OPERATIONS.indexOf(scope.slice(scope.lastIndexOf(":") + 1) as (typeof API_KEY_OPERATIONS)[number]);
  return [...groups].map(([segment, list]) => [segment, list.sort((a, b) => order(a) - order(b))]);
}

/** A key's scopes in a few words: "Everything your role allows", or the list. */
export function describeScopes(scopes: readonly string[] | null): string {
  if (scopes === null) return "Everything the role allows";
  return scopes.length === 0 ? "Only the profile (me)" : scopes.join(", ");
}
