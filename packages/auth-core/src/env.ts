import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadDomain } from "./config/index.js";
import { type Auth, createAuth } from "./create-auth.js";
import { DEFAULT_REGISTER_LIMIT } from "./throttle/register-throttle.js";
import { MIN_SETUP_TOKEN_BYTES } from "./tokens/setup-token.js";

/** The environment variables domain-auth reads (CONTRACT 2). */
export interface AuthEnvironment {
  DOMAIN_FILE?: string;
  DATABASE_URL?: string;
  AUTH_SECRET?: string;
  AUTH_TOKEN_TTL?: string;
  AUTH_BCRYPT_COST?: string;
  TRUST_PROXY?: string;
  /**
   * When set (at least 16 bytes), `POST setup` needs `{"setupToken": …}` equal to it, so a fresh
   * instance cannot be claimed by whoever reaches it first. Empty or unset: setup stays anonymous.
   */
  SETUP_TOKEN?: string;
  AUTH_REGISTER_LIMIT?: string;
  NODE_ENV?: string;
}

/** A setting in the environment that cannot be used. */
export class EnvironmentError extends Error {
  override readonly name = "EnvironmentError";
}

function integer(env: AuthEnvironment, name: keyof AuthEnvironment, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new EnvironmentError(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return value;
}

/** The development secret kept under `.data/`, created on first use. */
function developmentSecret(dataDirectory: string): string {
  const file = resolve(dataDirectory, "auth-secret");
  try {
    const secret = readFileSync(file, "utf8").trim();
    if (secret.length >= 32) return secret;
  } catch {}
  const secret = randomBytes(32).toString("base64url");
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Options of {@link createAuthFromEnv}. */
export interface CreateAuthFromEnvOptions {
  /** Receives one line for each development-only setting in use. @default console.warn */
  warn?: (line: string) => void;
}

/**
 * Creates an instance from the environment: `DOMAIN_FILE`, `DATABASE_URL`, `AUTH_SECRET`,
 * `AUTH_TOKEN_TTL`, `AUTH_BCRYPT_COST`, `TRUST_PROXY`, `SETUP_TOKEN`, `AUTH_REGISTER_LIMIT` (see {@link AuthEnvironment}).
 *
 * @throws {EnvironmentError | DomainConfigError | Error} with a one-line message on a bad setting,
 * an invalid domain.yaml or an unreachable database.
 */
export async function createAuthFromEnv(env: AuthEnvironment = process.env, options: CreateAuthFromEnvOptions = {}): Promise<Auth> {
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const production = env.NODE_ENV === "production";
  const domain = await loadDomain(env.DOMAIN_FILE || "domain.yaml");
  const database = env.DATABASE_URL || "file:.data/app.db";
  const bcryptCost = integer(env, "AUTH_BCRYPT_COST", 10, production ? 10 : 4, 31);
  if (bcryptCost < 10)
    warn(`domain-auth: warning: AUTH_BCRYPT_COST=${bcryptCost} is below 10: fast for tests, too weak for real passwords`);
  const tokenTtlSeconds = integer(env, "AUTH_TOKEN_TTL", 3600, 1, 366 * 24 * 3600);
  const trustProxy = integer(env, "TRUST_PROXY", 0, 0, 32);
  const setupToken = env.SETUP_TOKEN || undefined;
  if (setupToken !== undefined && Buffer.byteLength(setupToken, "utf8") < MIN_SETUP_TOKEN_BYTES)
    throw new EnvironmentError(`SETUP_TOKEN must be at least ${MIN_SETUP_TOKEN_BYTES} bytes (or unset for an anonymous setup)`);
  const registerLimit = integer(env, "AUTH_REGISTER_LIMIT", DEFAULT_REGISTER_LIMIT, 1, 1_000_000);

  let secret = env.AUTH_SECRET;
  if (domain.auth) {
    if (secret !== undefined && new TextEncoder().encode(secret).byteLength < 32)
      throw new EnvironmentError("AUTH_SECRET must be at least 32 bytes");
    if (secret === undefined) {
      if (production) throw new EnvironmentError("AUTH_SECRET must be set (at least 32 bytes) when NODE_ENV is production");
      secret = developmentSecret(".data");
      warn(
        "domain-auth: warning: AUTH_SECRET is not set; using the development secret kept in .data/auth-secret (set AUTH_SECRET in production)",
      );
    }
  }
  return createAuth({
    domain,
    database,
    bcryptCost,
    tokenTtlSeconds,
    trustProxy,
    registerLimit,
    ...(secret ? { secret } : {}),
    ...(setupToken ? { setupToken } : {}),
  });
}

const INSTANCE = Symbol.for("domain-auth.instance");
type Global = typeof globalThis & { [INSTANCE]?: Promise<Auth> };

/**
 * The process-wide instance created from the environment (see {@link createAuthFromEnv}),
 * created on first call. A failed creation is not cached, so a later call tries again.
 */
export function authFromEnv(): Promise<Auth> {
  const global = globalThis as Global;
  global[INSTANCE] ??= createAuthFromEnv().catch((error: unknown) => {
    delete global[INSTANCE];
    throw error;
  });
  return global[INSTANCE];
}
