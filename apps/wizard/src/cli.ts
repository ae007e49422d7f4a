import { runValidate } from "./validate-command.js";

const USAGE = `Usage:
  create-domain-auth validate [file]   check a domain.yaml (default: ./domain.yaml)
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "validate") return runValidate(rest[0] ?? "domain.yaml", process);
  if (command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  process.stderr.write(USAGE);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
