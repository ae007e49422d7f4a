import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The published packages as tarballs, the way a user gets them from the registry. */
export interface PackedPackages {
  /** `create-domain-auth-<version>.tgz`: the wizard, with its templates. */
  readonly wizard: string;
  /** `domain-auth-core-<version>.tgz`: the core the scaffold imports. */
  readonly core: string;
}

function pack(workspace: string, destination: string): string {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: join(ROOT, workspace), encoding: "utf8" }),
  ) as { filename: string }[];
  if (!packed) throw new Error(`npm pack gave nothing in ${workspace}`);
  return join(destination, packed.filename);
}

/** Packs the wizard and the core (both built by `npm run build`) into `destination`. */
export function packPackages(destination: string): PackedPackages {
  return { wizard: pack("apps/wizard", destination), core: pack("packages/auth-core", destination) };
}
