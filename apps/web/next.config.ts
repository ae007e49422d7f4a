import type { NextConfig } from "next";

/** What the sample's own pages carry at least (docs/security.md#security-headers): no sniffing, no referrer, no framing. */
const OWN_PAGE_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
];

/**
 * One build serves any `domain.yaml`: the domain, database and secret are read when the
 * server starts (see `server.mjs`), never at build time.
 */
const nextConfig: NextConfig = {
  // The core uses native better-sqlite3 and worker threads: Node loads it, the bundler does not.
  serverExternalPackages: ["@domain-auth/core"],
  turbopack: {
    // In this monorepo the core is a workspace package, which Turbopack bundles whatever
    // serverExternalPackages says (only packages installed in node_modules stay external, as in a
    // project the wizard sets up). Bundled, `@domain-auth/core/next`'s imports of `next/navigation.js`
    // and the like (the `.js` that Node.js needs) would skip Next.js's own mapping of those modules for
    // route handlers and pull in client code a route cannot load (`next build` then fails with
    // MODULE_UNPARSABLE … app-router-context.js). Mapped to their bare names, they resolve as the
    // project's own imports do, in pages, route handlers and server actions alike.
    resolveAlias: {
      "next/headers.js": "next/headers",
      "next/navigation.js": "next/navigation",
      "next/server.js": "next/server",
    },
  },
  // `npm run typecheck` at the root checks the app; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  // `requireUser({ roles })` of @domain-auth/core/next answers a signed-in user without the role with `forbidden()`.
  experimental: { authInterrupts: true },
  // The sample's own pages (home, 404): the auth pages' proxy sets their full policy instead.
  async headers() {
    return [{ source: "/((?!api$|api/|_next/).*)", headers: OWN_PAGE_HEADERS }];
  },
};

export default nextConfig;
