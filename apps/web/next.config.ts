import type { NextConfig } from "next";

/** What the sample's own pages carry at least (CONTRACT §13): no sniffing, no referrer, no framing. */
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
