import { runWizard } from "./wizard.js";

/** Words that will be commands; until then they are refused rather than taken for a folder. */
const UPCOMING_COMMANDS = ["admin"];

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "validate") {
    const { runValidate } = await import("./validate-command.js");
    return runValidate(rest[0] ?? "domain.yaml", process);
  }
  if (command !== undefined && UPCOMING_COMMANDS.includes(command)) {
    process.stderr.write(`create-domain-auth: unknown command '${command}'\nRun create-domain-auth --help for usage.\n`);
    return 2;
  }
  return runWizard({
    cwd: process.cwd(),
    argv,
    input: process.stdin,
    output: process.stdout,
    errorOutput: process.stderr,
    env: process.env,
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`create-domain-auth: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
