import { randomBytes } from "node:crypto";
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { isCancel, password } from "@clack/prompts";
import type { WizardContext } from "./wizard.js";

export const ADMIN_USAGE = `Usage: create-domain-auth admin <email> [--password-stdin]
       create-domain-auth admin --reset-mfa <email>

Creates a user with the setup role, or gives an existing user that role and a new
password: the way back in when setup is closed and no administrator is left.
The password is asked for, or read from standard input with --password-stdin.

With --reset-mfa, removes the user's second factors (their authenticator app and
recovery codes) and signs them out everywhere; their password stays.

Reads DOMAIN_FILE (default domain.yaml) and DATABASE_URL (default file:.data/app.db).
`;

type CoreModule = typeof import("@domain-auth/core") & typeof import("@domain-auth/core/admin") & typeof import("@domain-auth/core/config");

async function loadCore(): Promise<CoreModule | undefined> {
  // Kept out of the bundle: the command uses the project's own installed core and its drivers.
  const specifiers = ["@domain-auth/core", "@domain-auth/core/admin", "@domain-auth/core/config"];
  try {
    const modules = await Promise.all(specifiers.map((specifier) => import(specifier)));
    return Object.assign({}, ...modules) as CoreModule;
  } catch {
    return undefined;
  }
}

async function readPassword(context: WizardContext, fromStdin: boolean): Promise<string | symbol | undefined> {
  if (fromStdin) return (await text(context.input)).replace(/\r?\n$/, "");
  const interactive = context.input.isTTY === true && context.output.isTTY === true;
  if (!interactive) return undefined;
  const streams = { input: context.input, output: context.output };
  const first = await password({ message: "New password (at least 8 characters, not a common one)", ...streams });
  if (isCancel(first)) return first;
  const again = await password({
    message: "Repeat the password",
    ...streams,
    validate: (value) => (value === first ? undefined : "The passwords differ"),
  });
  return isCancel(again) ? again : first;
}

const ADMIN_OPTIONS = {
  "password-stdin": { type: "boolean" },
  "reset-mfa": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** What the command line asks for: help, or an email with the choices about it; `null` for bad usage. */
type AdminRequest =
  | { readonly help: true }
  | { readonly help?: false; readonly email: string; readonly resetMfa: boolean; readonly fromStdin: boolean };

function parseAdminArgs(argv: readonly string[]): AdminRequest | string {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof ADMIN_OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: ADMIN_OPTIONS, allowPositionals: true });
  } catch (error) {
    return `create-domain-auth admin: ${(error as Error).message}\n\n${ADMIN_USAGE}`;
  }
  if (parsed.values.help) return { help: true };
  const [email, ...extra] = parsed.positionals;
  const resetMfa = parsed.values["reset-mfa"] === true;
  const fromStdin = parsed.values["password-stdin"] === true;
  if (!email || extra.length > 0 || (resetMfa && fromStdin)) return ADMIN_USAGE;
  return { email, resetMfa, fromStdin };
}

type Instance = Awaited<ReturnType<CoreModule["createAuth"]>>;

/** Opens the instance the server would (its settings, its domain, its database) and runs `work` on it. */
async function withInstance(core: CoreModule, context: WizardContext, work: (auth: Instance) => Promise<string>): Promise<number> {
  const errors = context.errorOutput ?? context.output;
  let auth: Instance | undefined;
  try {
    // The server's own settings reader: the same defaults and checks (AUTH_BCRYPT_COST's range included).
    const settings = core.readSettings(context.env);
    auth = await core.createAuth({
      domain: await core.loadDomain(settings.domainFile),
      database: settings.databaseUrl,
      // The command issues no token and reads no sealed secret; without AUTH_SECRET any secret will do.
      secret: settings.secret ?? randomBytes(32).toString("base64url"),
      bcryptCost: settings.bcryptCost,
      hashThreads: 1,
    });
    context.output.write(await work(auth));
    return 0;
  } catch (error) {
    const diagnostics = (error as { diagnostics?: unknown; file?: string }).diagnostics;
    if (Array.isArray(diagnostics) && core.formatDiagnostic) {
      for (const diagnostic of diagnostics) errors.write(`${core.formatDiagnostic((error as { file: string }).file, diagnostic)}\n`);
    } else {
      errors.write(`create-domain-auth admin: ${(error as Error).message}\n`);
    }
    return 1;
  } finally {
    await auth?.close();
  }
}

/**
 * `create-domain-auth admin <email> [--password-stdin]`, and `admin --reset-mfa <email>`.
 *
 * @returns the exit code: 0 done, 1 failed, 2 bad usage, 130 cancelled.
 */
export async function runAdmin(context: WizardContext): Promise<number> {
  const errors = context.errorOutput ?? context.output;
  const request = parseAdminArgs(context.argv);
  if (typeof request === "string") {
    errors.write(request);
    return 2;
  }
  if (request.help) {
    context.output.write(ADMIN_USAGE);
    return 0;
  }
  const secret = request.resetMfa ? "" : await readPassword(context, request.fromStdin);
  if (secret === undefined) {
    errors.write("create-domain-auth admin: no terminal to ask for the password; pipe it in with --password-stdin\n");
    return 2;
  }
  if (typeof secret === "symbol") return 130;

  const core = await loadCore();
  if (!core) {
    errors.write("create-domain-auth admin: @domain-auth/core is not installed here; run it in your app's folder after npm install\n");
    return 1;
  }
  if (request.resetMfa) {
    return withInstance(core, context, async (auth) => {
      const { user } = await core.resetSecondFactors(auth, request.email);
      return `Removed the second factors of ${String(user.email)} and signed them out everywhere.\n`;
    });
  }
  return withInstance(core, context, async (auth) => {
    const result = await core.ensureAdministrator(auth, { email: request.email, password: secret });
    const role = String(result.user.role);
    return result.action === "created"
      ? `Created ${result.user.email} with the role ${role}.\n`
      : `Gave ${result.user.email} the role ${role} and the new password.\n`;
  });
}
