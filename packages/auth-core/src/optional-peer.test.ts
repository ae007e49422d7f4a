import { describe, expect, it } from "vitest";
import { assertOptionalPeerInstalled, importOptionalPeer } from "./optional-peer.js";

/** The error Node.js gives for a package that is not installed, as `import()` of `name` would. */
function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/@domain-auth/core/dist/x.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
}

describe("importOptionalPeer", () => {
  it("loads an installed driver", async () => {
    const { default: pg } = await importOptionalPeer("pg", () => import("pg"));
    expect(typeof pg.Pool).toBe("function");
  });

  it("names the package to install, and what needs it, when the driver is missing", async () => {
    const missing = importOptionalPeer("pg", () => Promise.reject(notFound("pg")));
    await expect(missing).rejects.toThrow(
      "a postgres:// DATABASE_URL (PostgreSQL) needs the pg package, which is not installed: run npm install pg",
    );
    await expect(importOptionalPeer("better-sqlite3", () => Promise.reject(notFound("better-sqlite3")))).rejects.toThrow(
      /SQLite\) needs the better-sqlite3 package.*npm install better-sqlite3$/,
    );
  });

  it("passes on any other failure as it is, a package the driver itself misses included", async () => {
    const inner = notFound("pg-native");
    await expect(importOptionalPeer("pg", () => Promise.reject(inner))).rejects.toBe(inner);
    const broken = new Error("the native module was built for another Node.js");
    await expect(importOptionalPeer("better-sqlite3", () => Promise.reject(broken))).rejects.toBe(broken);
  });
});

describe("assertOptionalPeerInstalled", () => {
  it("accepts an installed package", () => {
    expect(() => assertOptionalPeerInstalled("nodemailer")).not.toThrow();
  });
});
