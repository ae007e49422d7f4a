"use server";

import { cookies } from "next/headers";
import { SESSION_COOKIE } from "./session-server";

/**
 * Removes the browser's session cookies: how a tab signs out where the domain has no `logout` to
 * revoke the session with (the token then stays valid on the server until it expires). Next.js
 * answers only same-origin calls of a server action.
 */
export async function forgetSessionCookies(): Promise<void> {
  const jar = await cookies();
  for (const { name } of jar.getAll()) {
    if (!SESSION_COOKIE.test(name)) continue;
    jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: name.startsWith("__Host-") });
  }
}
