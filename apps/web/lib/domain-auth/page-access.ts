import { authFromEnv } from "@domain-auth/core";
import { notFound, redirect } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import type { AuthView } from "./domain-view";
import { type PageName, type PageState, pageOutcome, readPageState } from "./page-guard";

export type { PageName, PageState } from "./page-guard";

/** The state of the current request, read once per request however many components ask. */
export const loadPageState = cache(async (): Promise<PageState> => {
  await connection();
  return readPageState(await authFromEnv());
});

function open(page: PageName, state: PageState, needsAuth: boolean): void {
  const outcome = pageOutcome(page, state, needsAuth);
  if (outcome === "not-found") notFound();
  if (outcome === "setup") redirect("/setup");
}

/**
 * Opens a page: answers 404 when the domain has no such page (auth none, a disabled endpoint)
 * and leads to `/setup` while first-run setup is pending.
 */
export async function openPage(page: PageName): Promise<PageState> {
  const state = await loadPageState();
  open(page, state, false);
  return state;
}

/** Opens a page that exists only with `auth.type: jwt`, returning the `auth` block too. */
export async function openAuthPage(page: PageName): Promise<PageState & { auth: AuthView }> {
  const state = await loadPageState();
  open(page, state, true);
  if (!state.view.auth) notFound();
  return { ...state, auth: state.view.auth };
}
