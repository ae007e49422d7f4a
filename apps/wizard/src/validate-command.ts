import { readFile } from "node:fs/promises";
import { formatDiagnostic, validateDomainText } from "@domain-auth/core/config";

/** Output streams a command writes to. */
export interface CommandIO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * The text of a domain file, or `null` after reporting why it cannot be read, in the diagnostics'
 * own format (`FILE:1:1  (root)  file not found`).
 */
export async function readDomainFile(file: string, io: CommandIO): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message;
    io.stderr.write(`${file}:1:1  (root)  ${reason}\n`);
    return null;
  }
}

/**
 * `create-domain-auth validate [file]`: prints every problem as `FILE:LINE:COL  path  message`.
 *
 * @returns the exit code: 0 valid (warnings allowed), 1 errors.
 */
export async function runValidate(file: string, io: CommandIO): Promise<number> {
  const text = await readDomainFile(file, io);
  if (text === null) return 1;
  const { diagnostics, errorCount, warningCount } = validateDomainText(text);
  // One stream for the whole report keeps its lines in source order when both are piped.
  const report = errorCount > 0 ? io.stderr : io.stdout;
  for (const diagnostic of diagnostics) report.write(`${formatDiagnostic(file, diagnostic)}\n`);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  if (errorCount > 0) {
    io.stderr.write(`${file}: ${plural(errorCount, "error")}, ${plural(warningCount, "warning")}\n`);
    return 1;
  }
  io.stdout.write(`${file}: valid${warningCount > 0 ? ` (${plural(warningCount, "warning")})` : ""}\n`);
  return 0;
}
