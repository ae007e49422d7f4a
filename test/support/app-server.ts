import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = fileURLToPath(new URL("../../apps/web/", import.meta.url));
const READY_LINE = /http:\/\/localhost:(\d+)\//;

/** A production server of apps/web on its own port, directory and SQLite database. */
export interface RunningApp {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The temporary directory holding `domain.yaml` and `app.db`. */
  readonly dir: string;
  /** The server's process id. */
  readonly pid: number;
  /** Everything the server printed so far. */
  output(): string;
  /** Sends `signal` (a crash with `SIGKILL`) and waits until the process is gone; keeps the directory. */
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** The `domain.yaml` text to serve. @default apps/web/domain.yaml (the blog example) */
  readonly domain?: string;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Serve from this existing directory (its `domain.yaml` and `app.db`, written when missing) instead of
   * a new temporary one: a restart on the same database. The caller removes it; `stop()` leaves it.
   */
  readonly dir?: string;
  /** The folder of the app to serve: its `server.mjs` and production build. @default apps/web */
  readonly app?: string;
}

/**
 * A TCP port free on 127.0.0.1 right now, for a server whose `APP_URL` must name its port before it
 * starts (the cookie sign-ins accept only that origin).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Starts `apps/web/server.mjs` (or another app's, see {@link StartAppOptions.app}) with `NODE_ENV=production` on a free port and waits for its ready line. */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "domain-auth-e2e-"));
  const domainFile = join(dir, "domain.yaml");
  if (options.domain !== undefined) writeFileSync(domainFile, options.domain);
  else if (ownsDir || !existsSync(domainFile)) copyFileSync(join(WEB, "domain.yaml"), domainFile);

  const child = spawn(process.execPath, [join(options.app ?? WEB, "server.mjs")], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOSTNAME: "127.0.0.1",
      DOMAIN_FILE: domainFile,
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });

  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready after 30 s:\n${output}`)), 30_000);
    child.stdout?.on("data", () => {
      const match = READY_LINE.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const port = await ready.catch((error: unknown) => {
    child.kill("SIGKILL");
    if (ownsDir) rmSync(dir, { recursive: true, force: true });
    throw error;
  });

  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    pid: child.pid ?? 0,
    output: () => output,
    async kill(signal) {
      child.kill(signal);
      await waitForExit(child, 5_000);
    },
    async stop() {
      child.kill("SIGTERM");
      await waitForExit(child, 5_000);
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
