/** Where a page goes after sign-in when it was given no usable `next`. */
export const DEFAULT_AFTER_SIGN_IN = "/profile";

/**
 * The page to open after sign-in for a `next` parameter (docs/api.md#cookie-sessions): only a path of this origin
 * (`/…`, not `//…`, no scheme, no backslash, no control character, and no dot segments that make
 * it `//…` once resolved, as `/..//evil.example` does); anything else, or nothing, is
 * {@link DEFAULT_AFTER_SIGN_IN}.
 *
 * @example afterSignIn("/dashboard?tab=2") // "/dashboard?tab=2"
 * @example afterSignIn("//evil.example") // "/profile"
 */
export function afterSignIn(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//")) return DEFAULT_AFTER_SIGN_IN;
  // Browsers read `\` as `/` and drop tabs and newlines: `/\evil.example` would leave the origin.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return DEFAULT_AFTER_SIGN_IN;
  try {
    const url = new URL(next, "http://origin.invalid");
    // Resolved, `/..//evil.example` (or `/%2e%2e//…`) is the path `//evil.example`: whoever later
    // takes the path of the resolved URL, or a server that collapses the dots, has `//evil.example`.
    return url.origin === "http://origin.invalid" && !url.pathname.startsWith("//") ? next : DEFAULT_AFTER_SIGN_IN;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}

/** The sign-in page's address that comes back to `path` (a page's path and query) afterwards. */
export function signInPath(path: string | null | undefined): string {
  const next = afterSignIn(path);
  return next === DEFAULT_AFTER_SIGN_IN && path !== DEFAULT_AFTER_SIGN_IN ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}
