import type { NextConfig } from "next";

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
};

export default nextConfig;
