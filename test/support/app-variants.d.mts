// Types of app-variants.mjs: the copies of the web app built for tests and benchmarks.

/** Where {@link ensureCacheComponentsBuilt} builds the app with `cacheComponents` on. */
export declare const CACHE_COMPONENTS_APP: string;

/**
 * Builds a copy of the app with `cacheComponents` and `partialPrefetching` on, as the newest create-next-app
 * sets them, unless its build is newer than the app's sources; throws when the build fails.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export declare function ensureCacheComponentsBuilt(): string;

/** Where {@link ensureTrivialRouteBuilt} builds the app with one more route. */
export declare const TRIVIAL_ROUTE_APP: string;

/** The path of the trivial route in {@link TRIVIAL_ROUTE_APP}. */
export declare const TRIVIAL_ROUTE_PATH: string;
/** A route of that copy answering `me` through Next.js. */
export declare const ME_VIA_NEXT_PATH: string;

/**
 * Builds a copy of the app with one more route handler that answers a constant JSON, unless its build
 * is newer than the app's sources; throws when the build fails.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export declare function ensureTrivialRouteBuilt(): string;

/** Where {@link ensureOwnerRulesBuilt} builds the app with a project's own proxy, route and rewrite. */
export declare const OWNER_RULES_APP: string;

/**
 * Builds a copy of the app whose proxy closes `/api/post` (403 `{ owner: "proxy" }`), whose own route
 * answers `/api/user/register` (`{ owner: "route" }`) and whose next.config rewrites `/api/user/login` to
 * another route of its own (`{ owner: "rewrite" }`), unless its build is newer than the app's sources;
 * throws when the build fails.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export declare function ensureOwnerRulesBuilt(): string;

/** The path of {@link OWNER_RULES_APP}'s own route handler that answers `{ email }` of `currentUser()` (`null` when signed out). */
export declare const WHOAMI_PATH: string;
/** The path of {@link OWNER_RULES_APP}'s own route handler that answers `{ email }` of `requireUser()` (a redirect to sign in when signed out). */
export declare const API_EXAMPLE_PATH: string;
/** The path of {@link OWNER_RULES_APP}'s own page for the role `Editor` alone: anyone else signed in gets the 403 page (`app/forbidden.tsx`). */
export declare const EDITORS_ONLY_PATH: string;
