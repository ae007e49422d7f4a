// Better Auth configured as the comparison: email and password on better-sqlite3, bearer tokens,
// rate limiter off, tables created by its own migrations.
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { bearer } from "better-auth/plugins";
import Database from "better-sqlite3";

/** Creates a Better Auth instance on the SQLite file `file`, its tables created. */
export async function createBetterAuth(file, secret) {
  const database = new Database(file);
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  const options = {
    database,
    secret,
    baseURL: "http://localhost",
    // Sign-up answers with the user only, as domain-auth's register does (no session is created).
    emailAndPassword: { enabled: true, autoSignIn: false },
    rateLimit: { enabled: false },
    plugins: [bearer()],
    logger: { disabled: true },
    telemetry: { enabled: false },
  };
  const { runMigrations } = await getMigrations(options);
  await runMigrations();
  const auth = betterAuth(options);
  return { auth, close: () => database.close() };
}
