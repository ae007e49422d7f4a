// Start-up of the command-line tools, as whole processes: the wizard against create-t3-app.
// Time to the first prompt is measured by the wizard's own script (apps/wizard/scripts/
// time-to-first-prompt.mjs), one run per call so the two tools can take turns.
import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DOMAIN_FILE } from "./in-process.mjs";

const run = promisify(execFile);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const WIZARD_BIN = here("../../apps/wizard/bin/create-domain-auth.js");
const FIRST_PROMPT_SCRIPT = here("../../apps/wizard/scripts/time-to-first-prompt.mjs");
export const T3_BIN = fileURLToPath(import.meta.resolve("create-t3-app"));
/** create-t3-app's first question. */
const T3_FIRST_PROMPT = "What will your project be called?";

/** Milliseconds until the tool's first question is drawn in a pseudo-terminal (one run). */
async function firstPrompt(extra) {
  const { stdout } = await run(process.execPath, [FIRST_PROMPT_SCRIPT, "--runs", "1", ...extra], { timeout: 120_000 });
  const match = /median (\d+(?:\.\d+)?) ms/.exec(stdout);
  if (!match) throw new Error(`unexpected output of time-to-first-prompt: ${stdout}`);
  return Number(match[1]);
}

export const wizardFirstPrompt = () => firstPrompt([]);
export const t3FirstPrompt = () => firstPrompt(["--marker", T3_FIRST_PROMPT, "--", process.execPath, T3_BIN]);

/** Milliseconds from spawning `node args…` until the process exited with `expectedCode`. */
export function wholeProcess(args, expectedCode = 0) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const elapsed = performance.now() - started;
      if (code === expectedCode) resolve(elapsed);
      else reject(new Error(`node ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
}

export const wizardValidate = () => wholeProcess([WIZARD_BIN, "validate", DOMAIN_FILE]);
export const t3Help = () => wholeProcess([T3_BIN, "--help"]);
/** The floor: a Node.js process that prints one line. */
export const nodeFloor = () => wholeProcess(["-e", "console.log('ok')"]);
