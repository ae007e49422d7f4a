"use server";

import { loadPageState } from "./page-access";
import { readSession } from "./session-server";

/** What a page at the root of the app (the 403 page, a 404) learns of the request once it is on screen. */
export interface Visitor {
  /** The service's name (the domain's `name`), for the tab's title. */
  readonly service: string;
  /** Signed out, and the domain has sign-in. */
  readonly signIn: boolean;
  /** Signed in: their profile. */
  readonly profile: boolean;
}

/**
 * Asked by a page at the root of the app once it is on screen (components/domain-auth/visitor-ways.tsx):
 * Next.js renders the element of a root `forbidden` or `not-found` into every page (and prerenders a
 * root `not-found`), so such a page reads nothing of the request itself. Says only the service's name
 * and whether the caller is signed in. Next.js answers only same-origin calls of a server action.
 */
export async function visitor(): Promise<Visitor> {
  const { view } = await loadPageState();
  if (!view.auth) return { service: view.name, signIn: false, profile: false };
  const signedIn = (await readSession(view.auth)).status === "signed-in";
  return { service: view.name, signIn: !signedIn && view.auth.endpoints.login, profile: signedIn };
}
