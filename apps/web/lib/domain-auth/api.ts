import type { ErrorBody } from "@domain-auth/core/policy";
import type { ApiResult, CallOptions } from "./api-request";
import { asSentence, fieldSentence, inputLabel } from "./sentences";
import { sessionClient } from "./session";

export type { ApiFailure, ApiResult, CallOptions } from "./api-request";

/**
 * Calls the domain-auth API at `path`, one of the core's API paths, through the tab's session
 * client: a same-origin request that the session cookies go with. Refused 401 while signed in, the
 * session is refreshed once (where the domain allows it) and the request sent again; a second 401
 * is the answer.
 * @example const result = await callApi<{ items: Post[] }>(collectionPath(entity));
 */
export function callApi<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  return sessionClient().call<T>(path, options);
}

/**
 * The sentences to show above a form: when every issue is shown beside its input, a pointer to
 * them; otherwise the API's message with the issues no input shows, each naming what it is about.
 */
export function formErrorSummary(error: ErrorBody | null, fieldNames: readonly string[]): string | null {
  if (!error) return null;
  const issues = error.issues ?? [];
  if (issues.length === 0) return asSentence(error.message);
  const unplaced = issues.filter((issue) => !fieldNames.includes(String(issue.path[0] ?? "")));
  if (unplaced.length === 0) return "Please correct the fields marked below.";
  return [error.message, ...unplaced.map((issue) => fieldSentence(inputLabel(String(issue.path[0] ?? "")), issue.message))]
    .map(asSentence)
    .join(" ");
}

/**
 * The API's issues keyed by their first path element (the field name), the rest under `""`, each a
 * sentence that names its input ("Email is required."), as every form shows them.
 */
export function issuesByField(error: ErrorBody | null): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of error?.issues ?? []) {
    const field = String(issue.path[0] ?? "");
    const sentence = fieldSentence(inputLabel(field), issue.message);
    byField[field] = byField[field] ? `${byField[field]} ${sentence}` : sentence;
  }
  return byField;
}
