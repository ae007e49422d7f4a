import { PassThrough } from "node:stream";
import { runWizard } from "../wizard.js";

/** Keys as a terminal sends them. */
export const KEY = {
  enter: "\r",
  down: "\x1b[B",
  up: "\x1b[A",
  space: " ",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlU: "\x15",
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]/g;

/** A wizard run on streams that say they are a terminal, with keys typed in and the screen read back. */
export interface WizardSession {
  /** Resolves with the exit code. */
  readonly done: Promise<number>;
  /** Everything drawn so far, without colours or cursor moves. */
  screen(): string;
  /** Everything written to the error stream. */
  errors(): string;
  /** Waits until `text` is drawn after the previous `waitFor` match; fails after a few seconds. */
  waitFor(text: string): Promise<void>;
  /** Waits for `text`, then types `keys`. */
  answer(text: string, ...keys: string[]): Promise<void>;
  type(...keys: string[]): void;
}

/** Starts `runWizard` in `cwd` with a virtual terminal 100 columns wide. */
export function startWizard(cwd: string, argv: readonly string[] = [], env: Record<string, string | undefined> = {}): WizardSession {
  const input: PassThrough & { isTTY: true; setRawMode(mode: boolean): unknown } = Object.assign(new PassThrough(), {
    isTTY: true as const,
    setRawMode: () => input,
  });
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 100, rows: 40 });
  const errorOutput = new PassThrough();
  let drawn = "";
  let errors = "";
  let seen = 0;
  output.on("data", (chunk: Buffer) => {
    drawn += chunk.toString("utf8");
  });
  errorOutput.on("data", (chunk: Buffer) => {
    errors += chunk.toString("utf8");
  });
  const screen = () => drawn.replace(ANSI, "");
  const done = runWizard({ cwd, argv, input, output, errorOutput, env: { NO_COLOR: "1", ...env } });
  let finished = false;
  void done.finally(() => {
    finished = true;
  });

  const session: WizardSession = {
    done,
    screen,
    errors: () => errors,
    async waitFor(text) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const index = screen().indexOf(text, seen);
        if (index !== -1) {
          seen = index + text.length;
          return;
        }
        if (finished || Date.now() > deadline) {
          throw new Error(`"${text}" never appeared${finished ? " (the wizard ended)" : ""}; the screen:\n${screen()}\n${errors}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async answer(text, ...keys) {
      await session.waitFor(text);
      session.type(...keys);
    },
    type(...keys) {
      for (const key of keys) input.write(key);
    },
  };
  return session;
}
