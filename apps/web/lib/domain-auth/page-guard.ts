import type { Auth } from "@domain-auth/core";
import { type AuthPage, authPageExists } from "@domain-auth/core/vocabulary";
import { type DomainView, toDomainView } from "./domain-view";

/** The pages of the app: home, and the auth pages, each of which may exist or not depending on the domain's `auth` block. */
export type PageName = "home" | AuthPage;

/** The domain as the pages see it, and whether first-run setup is pending (`/setup` is then where every page leads). */
export interface PageState {
  readonly view: DomainView;
  readonly setupRequired: boolean;
  /** Setup is pending and the server was started with `SETUP_TOKEN`: `/setup` asks for it. */
  readonly setupTokenRequired: boolean;
}

/** Reads the state the pages are decided on from a running instance (one database query while setup may be pending). */
export async function readPageState(
  auth: Pick<Auth, "model" | "endpoints" | "isSetupRequired" | "setupTokenRequired">,
): Promise<PageState> {
  const view = toDomainView(auth.model, auth.endpoints);
  const setupRequired = view.auth?.endpoints.setup === true && (await auth.isSetupRequired());
  return { view, setupRequired, setupTokenRequired: setupRequired && auth.setupTokenRequired };
}

/** What opening a page leads to: the page, a 404 (no such page for this domain), or `/setup` while first-run setup is pending. */
export type PageOutcome = "open" | "not-found" | "setup";

/**
 * Decides a page: 404 when the domain has no such page (auth none, a disabled endpoint; with
 * `needsAuth`, any page under `auth.type: none`), `/setup` while setup is pending, else the page.
 */
export function pageOutcome(page: PageName, state: Pick<PageState, "view" | "setupRequired">, needsAuth = false): PageOutcome {
  const exists = page === "home" || authPageExists(page, state.view.auth?.endpoints ?? null);
  if (!exists) return "not-found";
  if (state.setupRequired && page !== "setup") return "setup";
  if (needsAuth && !state.view.auth) return "not-found";
  return "open";
}
