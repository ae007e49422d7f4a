import { rename, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { formatDiagnostic, validateDomainText } from "@domain-auth/core/config";
import { openApiDocument } from "@domain-auth/core/openapi";
import { type CommandIO, readDomainFile } from "./validate-command.js";

export const OPENAPI_USAGE = `Usage: create-domain-auth openapi [file] [--out FILE]

Prints the OpenAPI 3.1 document of the API that file (default: domain.yaml)
describes: the same document the server answers at GET /api/openapi.json.
With --out, writes it to FILE instead.
`;

/**
 * `create-domain-auth openapi [domain.yaml] [--out FILE]`: the document, printed or written.
 *
 * @returns the exit code: 0 done, 1 an unreadable or invalid file, 2 bad usage.
 */
export async function runOpenApi(argv: readonly string[], io: CommandIO): Promise<number> {
  let parsed: { values: { out?: string | undefined; help?: boolean | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { out: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
  } catch (error) {
    io.stderr.write(`create-domain-auth openapi: ${(error as Error).message}\n\n${OPENAPI_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(OPENAPI_USAGE);
    return 0;
  }
  if (parsed.positionals.length > 1) {
    io.stderr.write(`create-domain-auth openapi: one domain file at most\n\n${OPENAPI_USAGE}`);
    return 2;
  }
  const file = parsed.positionals[0] ?? "domain.yaml";
  const text = await readDomainFile(file, io);
  if (text === null) return 1;
  const { model, diagnostics } = validateDomainText(text);
  if (!model) {
    for (const diagnostic of diagnostics) io.stderr.write(`${formatDiagnostic(file, diagnostic)}\n`);
    return 1;
  }
  const json = `${JSON.stringify(openApiDocument(model), null, 2)}\n`;
  const out = parsed.values.out;
  if (out === undefined) {
    io.stdout.write(json);
    return 0;
  }
  // Written beside the target and renamed, so a reader never sees half a document.
  const temporary = `${out}.${process.pid}.tmp`;
  await writeFile(temporary, json);
  await rename(temporary, out);
  io.stderr.write(`create-domain-auth: wrote the OpenAPI document of ${file} to ${out}\n`);
  return 0;
}
