// Copies of the web app built for tests and benchmarks: with cacheComponents (as a project of the newest
// create-next-app runs it), with one trivial route more (what Next.js costs alone), and as a project
// with its own proxy, routes and rewrite. Each is built in .test-results/ only when its build is older
// than the app's sources or this file; the app's own build and start path is apps/web/ensure-build.mjs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { newestChange } from "../../apps/web/ensure-build.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const web = join(root, "apps/web");

/** Where {@link ensureCacheComponentsBuilt} builds the app with `cacheComponents` on (ignored by git). */
export const CACHE_COMPONENTS_APP = join(root, ".test-results/web-cache-components");
/** Where {@link ensureTrivialRouteBuilt} builds the app with one more route (ignored by git). */
export const TRIVIAL_ROUTE_APP = join(root, ".test-results/web-trivial-route");
/** The path of that route. */
export const TRIVIAL_ROUTE_PATH = "/bench-constant";
/**
 * A route of that copy that hands `GET /api/<auth>/me` to the instance inside Next.js, as the app's
 * catch-all route handler does: a project's own route, so `server.mjs` leaves it to Next.js.
 */
export const ME_VIA_NEXT_PATH = "/api/bench-me";
/** Where {@link ensureOwnerRulesBuilt} builds the app with a project's own proxy, route and rewrite (ignored by git). */
export const OWNER_RULES_APP = join(root, ".test-results/web-owner-rules");
const APP_FILES = ["app", "components", "lib", "proxy.ts", "server.mjs", "tsconfig.json", "package.json", "domain.yaml", "next.config.ts"];

/**
 * Builds a copy of the app in `folder`, changed by `adapt(folder)` once copied, unless the copy's build is
 * newer than the app's sources and this file; throws when the build fails.
 * @returns the folder, which holds the copy's `server.mjs`.
 */
function ensureCopyBuilt(folder, name, adapt) {
  const built = join(folder, ".next/BUILD_ID");
  // This file says how each copy is changed: a newer version of it rebuilds them too, as do the
  // core's sources, which the copies bundle as the app does.
  const sources = [...APP_FILES.map((path) => join(web, path)), fileURLToPath(import.meta.url), join(root, "packages/auth-core/src")];
  if (existsSync(built) && !sources.some((path) => newestChange(path) > statSync(built).mtimeMs)) return folder;
  console.log(`Building the web app ${name}…`);
  for (const path of APP_FILES) rmSync(join(folder, path), { recursive: true, force: true });
  for (const path of APP_FILES) cpSync(join(web, path), join(folder, path), { recursive: true });
  adapt(folder);
  const result = spawnSync("npx", ["next", "build"], {
    cwd: folder,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`building the web app ${name} failed (next build)`);
  return folder;
}

/**
 * Builds a copy of the app the way a project made by the newest create-next-app runs it: `cacheComponents`
 * and `partialPrefetching` on, and the auth pages' layout the wizard writes for such a project. Skipped when
 * the copy's build is newer than the app's sources; throws when the build fails.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export function ensureCacheComponentsBuilt() {
  return ensureCopyBuilt(CACHE_COMPONENTS_APP, "with cacheComponents", (folder) => {
    const sync = spawnSync(process.execPath, [join(root, "apps/wizard/scripts/sync-templates.mjs")], { stdio: "inherit" });
    if (sync.status !== 0) throw new Error("the wizard's templates could not be synced");
    const config = readFileSync(join(web, "next.config.ts"), "utf8");
    const changed = config.replace(
      "  reactStrictMode: true,\n",
      "  reactStrictMode: true,\n  cacheComponents: true,\n  partialPrefetching: true,\n",
    );
    if (changed === config) throw new Error("apps/web/next.config.ts has no `reactStrictMode: true,` line to add cacheComponents after");
    writeFileSync(join(folder, "next.config.ts"), changed);
    // The auth pages' layout and pages as the wizard scaffolds them into such a project.
    cpSync(join(root, "apps/wizard/templates/next-cache-components"), folder, { recursive: true });
  });
}

/**
 * Builds a copy of the app with one more route handler, at {@link TRIVIAL_ROUTE_PATH}, that does nothing
 * but answer a constant JSON: what Next.js costs alone, measured by the bench on the same server and
 * build as the API; and one at {@link ME_VIA_NEXT_PATH} answering `me` through Next.js. Skipped when the
 * copy's build is newer than the app's sources.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export function ensureTrivialRouteBuilt() {
  return ensureCopyBuilt(TRIVIAL_ROUTE_APP, "with a trivial route", (folder) => {
    const route = join(folder, "app", TRIVIAL_ROUTE_PATH.slice(1));
    mkdirSync(route, { recursive: true });
    writeFileSync(
      join(route, "route.ts"),
      'export const dynamic = "force-dynamic";\n\nconst BODY = { ok: true };\n\nexport function GET(): Response {\n  return Response.json(BODY);\n}\n',
    );
    const me = join(folder, "app", ME_VIA_NEXT_PATH.slice(1));
    mkdirSync(me, { recursive: true });
    writeFileSync(
      join(me, "route.ts"),
      'import { authFromEnv } from "@domain-auth/core";\n\nexport const dynamic = "force-dynamic";\n\n' +
        "/** `me` answered inside Next.js, as the catch-all route handler answers it. */\n" +
        "export async function GET(request: Request): Promise<Response> {\n" +
        "  const auth = await authFromEnv();\n" +
        '  return auth.handle(new Request(new URL("/api/user/me", request.url), { headers: request.headers }));\n' +
        "}\n",
    );
  });
}

/** The proxy of a project that closes /api/post to everyone (403, `X-Owner: proxy`) and keeps the auth pages' headers. */
const OWNER_PROXY = `import { type NextRequest, NextResponse } from "next/server";
import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";

export function proxy(request: NextRequest): NextResponse {
  const path = request.nextUrl.pathname;
  if (path === "/api/post" || path.startsWith("/api/post/")) {
    return NextResponse.json({ owner: "proxy" }, { status: 403, headers: { "x-owner": "proxy" } });
  }
  if (isAuthPage(path)) return withSecurityHeaders(request);
  return NextResponse.next();
}

export const config = { matcher: ["/api/post", "/api/post/:path*", "/((?!api$|api/|_next/|favicon\\\\.ico).*)"] };
`;

/** A route handler of the project's own, answering every method with `{ owner: <what> }` and `X-Owner: <what>`. */
function ownerRoute(what) {
  const body = `const handle = (): Response => Response.json({ owner: "${what}" }, { headers: { "x-owner": "${what}" } });\n`;
  return `${body}\nexport { handle as DELETE, handle as GET, handle as PATCH, handle as POST, handle as PUT };\n`;
}

/** The path of the copy's own route handler that answers who is signed in (`currentUser`): `{ email }`, `null` when no one. */
export const WHOAMI_PATH = "/whoami";
/** The path of the copy's own route handler that needs a signed-in user (`requireUser`): `{ email }`, else a redirect to sign in. */
export const API_EXAMPLE_PATH = "/api-example";

/** The path of the copy's own page for the role `Editor` alone (`requireUser({ roles })`): anyone else signed in gets the 403 page. */
export const EDITORS_ONLY_PATH = "/editors-only";

const EDITORS_ONLY_PAGE = `import { requireUser } from "@domain-auth/core/next";

export default async function EditorsOnlyPage() {
  const editor = await requireUser({ roles: ["Editor"] });
  return (
    <main>
      <h1>Editors only</h1>
      <p>Welcome, {editor.email}</p>
    </main>
  );
}
`;

/** The first route handlers a newcomer adds to the sample: each reads the session through `@domain-auth/core/next`. */
const SESSION_ROUTES = {
  [WHOAMI_PATH]: `import { currentUser } from "@domain-auth/core/next";

export async function GET(): Promise<Response> {
  const user = await currentUser();
  return Response.json({ email: user?.email ?? null });
}
`,
  [API_EXAMPLE_PATH]: `import { requireUser } from "@domain-auth/core/next";

export async function GET(): Promise<Response> {
  const user = await requireUser();
  return Response.json({ email: user.email });
}
`,
};

/**
 * Builds a copy of the app as a project that claims some API paths itself: its proxy closes
 * `/api/post` and `/api/post/:path*` (403 `{ owner: "proxy" }`), its own route handler answers
 * `/api/user/register` (`{ owner: "route" }`), and a next.config rewrite sends `/api/user/login` to
 * another route of its own (`{ owner: "rewrite" }`). It also has the route handlers a newcomer
 * writes first, at {@link WHOAMI_PATH} and {@link API_EXAMPLE_PATH}, which ask who is signed in, and a
 * page for one role, at {@link EDITORS_ONLY_PATH}.
 * Skipped when the copy's build is newer than the app's sources.
 * @returns the copy's folder, which holds its `server.mjs`.
 */
export function ensureOwnerRulesBuilt() {
  return ensureCopyBuilt(OWNER_RULES_APP, "with a project's own proxy, route and rewrite", (folder) => {
    writeFileSync(join(folder, "proxy.ts"), OWNER_PROXY);
    for (const [path, what] of [
      ["app/api/user/register", "route"],
      ["app/api/owner-login", "rewrite"],
    ]) {
      mkdirSync(join(folder, path), { recursive: true });
      writeFileSync(join(folder, path, "route.ts"), ownerRoute(what));
    }
    for (const [path, source] of Object.entries(SESSION_ROUTES)) {
      mkdirSync(join(folder, "app", path.slice(1)), { recursive: true });
      writeFileSync(join(folder, "app", path.slice(1), "route.ts"), source);
    }
    mkdirSync(join(folder, "app", EDITORS_ONLY_PATH.slice(1)), { recursive: true });
    writeFileSync(join(folder, "app", EDITORS_ONLY_PATH.slice(1), "page.tsx"), EDITORS_ONLY_PAGE);
    const config = readFileSync(join(web, "next.config.ts"), "utf8");
    const changed = config.replace(
      "  reactStrictMode: true,\n",
      '  reactStrictMode: true,\n  async rewrites() {\n    return [{ source: "/api/user/login", destination: "/api/owner-login" }];\n  },\n',
    );
    if (changed === config) throw new Error("apps/web/next.config.ts has no `reactStrictMode: true,` line to add a rewrite after");
    writeFileSync(join(folder, "next.config.ts"), changed);
  });
}
