#!/usr/bin/env node
// Measures the time from starting a CLI in a pseudo-terminal (util-linux `script`) until its first
// question is on screen; prints the median of several runs.
//   node scripts/time-to-first-prompt.mjs [--runs N] [--marker TEXT] [-- command args...]
// Without a command it measures the built create-domain-auth in a folder with a domain.yaml.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { runs: { type: "string", default: "10" }, marker: { type: "string", default: "How do callers authenticate?" } },
  allowPositionals: true,
});
const bin = fileURLToPath(new URL("../bin/create-domain-auth.js", import.meta.url));
const command = positionals.length > 0 ? positionals : [process.execPath, bin];
const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`;

function measureOnce(cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("script", ["-qfec", `stty cols 120 rows 40; exec ${command.map(quote).join(" ")}`, "/dev/null"], {
      cwd,
      env: { ...process.env, CI: "" },
      detached: true,
    });
    let seen = "";
    const timer = setTimeout(() => finish(new Error(`"${values.marker}" did not appear:\n${seen}`)), 60_000);
    function finish(error) {
      clearTimeout(timer);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      if (error) reject(error);
    }
    child.stdout.on("data", (chunk) => {
      seen += chunk.toString("utf8");
      if (seen.includes(values.marker)) {
        resolve(performance.now() - started);
        finish();
      }
    });
  });
}

const cwd = mkdtempSync(join(tmpdir(), "first-prompt-"));
writeFileSync(
  join(cwd, "domain.yaml"),
  "name: shop\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n  roles: [Admin, Member]\n",
);
const times = [];
for (let run = 0; run < Number(values.runs); run++) times.push(await measureOnce(cwd));
rmSync(cwd, { recursive: true, force: true });
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `time to first prompt: median ${median.toFixed(0)} ms over ${times.length} runs (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)})`,
);
