// `npm run try-wizard -- <dir> [wizard options]`: the wizard of this clone, as `npx create-domain-auth <dir>`
// will be once the packages are published. It builds the core and the wizard, packs the core into
// .try-wizard/ (kept: the project depends on that tarball), and runs the wizard with `--core <tarball>`.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// npm runs scripts at the repository's root; the folder is named from where the command was typed.
const typedIn = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);

if (args.length === 0 || args[0]?.startsWith("-")) {
  console.error("Usage: npm run try-wizard -- <project folder> [wizard options, e.g. --yes]");
  process.exit(2);
}

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result;
}

console.log("Building @domain-auth/core and create-domain-auth…");
run("npm", ["run", "build", "--silent"]);
const packs = join(root, ".try-wizard");
mkdirSync(packs, { recursive: true });
const packed = spawnSync("npm", ["pack", "--json", "--silent", "--pack-destination", packs], {
  cwd: join(root, "packages/auth-core"),
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
});
if (packed.status !== 0) process.exit(packed.status ?? 1);
const [{ filename }] = JSON.parse(packed.stdout);
const tarball = join(packs, filename);
console.log(`Packed ${tarball}; the project depends on it until @domain-auth/core is published.\n`);
const wizard = spawnSync(process.execPath, [join(root, "apps/wizard/bin/create-domain-auth.js"), ...args, "--core", tarball], {
  cwd: resolve(typedIn),
  stdio: "inherit",
});
process.exit(wizard.status ?? 1);
