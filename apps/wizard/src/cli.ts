import { runWizard } from "./wizard.js";

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "validate") {
    const { runValidate } = await import("./validate-command.js");
    return runValidate(rest[0] ?? "domain.yaml", process);
  }
  if (command === "openapi") {
    const { runOpenApi } = await import("./openapi-command.js");
    return runOpenApi(rest, process);
  }
  const context = { cwd: process.cwd(), argv, input: process.stdin, output: process.stdout, errorOutput: process.stderr, env: process.env };
  if (command === "admin") {
    const { runAdmin } = await import("./admin-command.js");
    return runAdmin({ ...context, argv: rest });
  }
  return runWizard(context);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`create-domain-auth: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
