import { authFromEnv } from "@domain-auth/core";
import { type AuthPage, authPageExists } from "@domain-auth/core/policy";
import { notFound, redirect } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { type AuthView, type DomainView, toDomainView } from "./domain-view";

/** The pages of the app: home, and the auth pages, each of which may exist or not depending on the domain's `auth` block. */
export type PageName = "home" | AuthPage;

function pageExists(page: PageName, view: DomainView): boolean {
  return page === "home" || authPageExists(page, view.auth?.endpoints ?? null);
}

/** The domain as the pages see it, and whether first-run setup is pending (`/setup` is then where every page leads). */
export interface PageState {
  readonly view: DomainView;
  readonly setupRequired: boolean;
  /** Setup is pending and the server was started with `SETUP_TOKEN`: `/setup` asks for it. */
  readonly setupTokenRequired: boolean;
}

/** The state of the current request, read once per request however many components ask. */
export const loadPageState = cache(async (): Promise<PageState> => {
  await connection();
  const auth = await authFromEnv();
  const view = toDomainView(auth.model, auth.endpoints);
  const setupRequired = view.auth?.endpoints.setup === true && (await auth.isSetupRequired());
  return { view, setupRequired, setupTokenRequired: setupRequired && auth.setupTokenRequired };
});

/**
 * Opens a page: answers 404 when the domain has no such page (auth none, a disabled endpoint)
 * and leads to `/setup` while first-run setup is pending.
 */
export async function openPage(page: PageName): Promise<PageState> {
  const state = await loadPageState();
  if (!pageExists(page, state.view)) notFound();
  if (state.setupRequired && page !== "setup") redirect("/setup");
  return state;
}

/** Opens a page that exists only with `auth.type: jwt`, returning the `auth` block too. */
export async function openAuthPage(page: PageName): Promise<PageState & { auth: AuthView }> {
  const state = await openPage(page);
  if (!state.view.auth) notFound();
  return { ...state, auth: state.view.auth };
}
