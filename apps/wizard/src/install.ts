import { spawn } from "node:child_process";
import type { PackageManager } from "./project.js";

/** The command that installs a project's dependencies with each package manager. */
export const INSTALL_COMMANDS: Readonly<Record<PackageManager, readonly string[]>> = {
  npm: ["npm", "install"],
  pnpm: ["pnpm", "install"],
  yarn: ["yarn", "install"],
  bun: ["bun", "install"],
};

/** The install command as the user would type it. */
export function installCommand(manager: PackageManager): string {
  return INSTALL_COMMANDS[manager].join(" ");
}

/**
 * The environment of the install: `env`, but a silent npm (the wizard run by `npm exec --silent`, or
 * inside an `npm run --silent`) still prints its errors, since a failed install is shown to the user.
 */
function installEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.npm_config_loglevel === "silent" ? { ...env, npm_config_loglevel: "error" } : env;
}

/**
 * Runs the install command in `dir`, with `env` as its environment.
 *
 * @returns `null` on success, else the command's output (its last lines) to show.
 */
export function runInstall(dir: string, manager: PackageManager, env: NodeJS.ProcessEnv): Promise<string | null> {
  const [command, ...args] = INSTALL_COMMANDS[manager] as [string, ...string[]];
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(command, args, {
      cwd: dir,
      env: installEnvironment(env),
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-8000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => resolve(`${command}: ${error.message}`));
    child.on("close", (code) =>
      resolve(code === 0 ? null : output.trim().split("\n").slice(-20).join("\n") || `${command} exited ${code}`),
    );
  });
}
