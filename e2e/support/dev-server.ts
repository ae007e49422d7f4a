import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WEB = join(ROOT, "apps/web");
/** Where the copy `next dev` serves lives: inside the repository, so it resolves the repository's modules (ignored by git). */
const COPY = join(ROOT, ".test-results/web-dev");
const APP_FILES = ["app", "components", "lib", "proxy.ts", "tsconfig.json", "package.json", "next.config.ts"];

/** `next dev` serving a copy of apps/web, as a developer runs it (React's development checks on). */
export interface DevServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Resolves once `pattern` is in what `read` returns; rejects when the server exits or after `timeoutMs`. */
function untilPrinted(child: ChildProcess, read: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (match) finish(() => resolve(match));
    };
    const exited = () => finish(() => reject(new Error(`next dev exited before printing ${pattern}:\n${read()}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`next dev printed no ${pattern} in ${timeoutMs / 1000} s:\n${read()}`))),
      timeoutMs,
    );
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", exited);
      settle();
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", exited);
    check();
  });
}

/**
 * Starts `next dev` on a copy of apps/web (the core's build must be current: `npm run build`) with its own SQLite database and `domain.yaml` (apps/web's
 * unless `domain` is given), on a port the system picks; resolves once it is ready.
 */
export async function startDevServer(options: { domain?: string } = {}): Promise<DevServer> {
  rmSync(COPY, { recursive: true, force: true });
  for (const path of APP_FILES) cpSync(join(WEB, path), join(COPY, path), { recursive: true });
  // The core as a project installs it: a folder in node_modules (its build), not the workspace's
  // symlink to its sources, which Turbopack would bundle despite serverExternalPackages.
  const core = join(COPY, "node_modules/@domain-auth/core");
  for (const path of ["package.json", "dist"]) cpSync(join(ROOT, "packages/auth-core", path), join(core, path), { recursive: true });
  const data = mkdtempSync(join(tmpdir(), "domain-auth-dev-"));
  const domainFile = join(data, "domain.yaml");
  writeFileSync(domainFile, options.domain ?? readFileSync(join(WEB, "domain.yaml"), "utf8"));
  const child = spawn("npx", ["next", "dev", "--port", "0", "--hostname", "127.0.0.1"], {
    cwd: COPY,
    env: {
      ...process.env,
      NODE_ENV: "development",
      NEXT_TELEMETRY_DISABLED: "1",
      DOMAIN_FILE: domainFile,
      DATABASE_URL: `file:${join(data, "app.db")}`,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone with its group
      }
      await gone;
    }
    rmSync(data, { recursive: true, force: true });
  };
  try {
    const [, port] = await untilPrinted(child, () => output, /Local:\s+http:\/\/127\.0\.0\.1:(\d+)/, 120_000);
    await untilPrinted(child, () => output, /Ready in/, 120_000);
    return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
