import { z } from "zod";
import { DEFAULT_EVENT_RETENTION_DAYS } from "./events/event-types.js";
import { type CorsOrigins, parseCorsOrigins } from "./http/cors.js";
import { DEFAULT_REAUTH_WINDOW_SECONDS, DEFAULT_REFRESH_TTL_SECONDS, DEFAULT_SESSION_MAX_AGE_SECONDS } from "./sessions/lifetimes.js";
import { DEFAULT_REGISTER_LIMIT } from "./throttle/register-throttle.js";
import { MIN_SETUP_TOKEN_BYTES } from "./tokens/setup-token.js";
import { MIN_SECRET_BYTES } from "./tokens/tokens.js";

/**
 * An option of `createAuth`, or a setting of the environment, that cannot be used. The message is
 * one line naming it (`registerLimit`, `AUTH_REGISTER_LIMIT`).
 */
export class ConfigurationError extends Error {
  override readonly name = "ConfigurationError";
}

const DAY = 24 * 3600;

/**
 * The app's public origin as `APP_URL` (or the `appUrl` option, named by `name`) must be: http(s),
 * no credentials, query or fragment; returned without a trailing slash. `undefined` for none.
 *
 * @throws {ConfigurationError} naming the setting.
 */
export function checkAppUrl(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`${name} must be an absolute http(s) URL such as https://app.example.com, got '${raw}'`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash)
    throw new ConfigurationError(`${name} must be an http(s) URL with no credentials, query or fragment, got '${raw}'`);
  return url.href.replace(/\/+$/, "");
}

/** A whole-number option: where the environment sets it, its range and its default. */
interface WholeNumberSpec {
  /** The environment variable that sets it, when one does. */
  readonly env?: string;
  readonly min: number;
  /** The least value in production, when it is more than `min`. */
  readonly productionMin?: number;
  readonly max?: number;
  readonly default?: number;
}

/**
 * The whole-number options, each with its variable, range and default: `createAuth` checks its
 * options against them and `readSettings` the environment, so both say the same.
 */
export const WHOLE_NUMBER_OPTIONS = {
  bcryptCost: { env: "AUTH_BCRYPT_COST", min: 4, productionMin: 10, max: 31, default: 10 },
  tokenTtlSeconds: { env: "AUTH_TOKEN_TTL", min: 1, max: 366 * DAY, default: 3600 },
  refreshTtlSeconds: { env: "AUTH_REFRESH_TTL", min: 1, max: 10 * 366 * DAY, default: DEFAULT_REFRESH_TTL_SECONDS },
  sessionMaxAgeSeconds: { env: "AUTH_SESSION_MAX_AGE", min: 1, max: 10 * 366 * DAY, default: DEFAULT_SESSION_MAX_AGE_SECONDS },
  trustProxy: { env: "TRUST_PROXY", min: 0, max: 32, default: 0 },
  registerLimit: { env: "AUTH_REGISTER_LIMIT", min: 1, max: 1_000_000, default: DEFAULT_REGISTER_LIMIT },
  eventRetentionDays: { env: "AUTH_EVENT_RETENTION", min: 1, max: 100 * 366, default: DEFAULT_EVENT_RETENTION_DAYS },
  reauthWindowSeconds: { env: "AUTH_REAUTH_WINDOW", min: 0, max: 366 * DAY, default: DEFAULT_REAUTH_WINDOW_SECONDS },
  port: { env: "PORT", min: 0, max: 65535, default: 3000 },
  hashThreads: { min: 1 },
  maxHashQueue: { min: 0 },
} as const satisfies Record<string, WholeNumberSpec>;

type WholeNumberOption = keyof typeof WHOLE_NUMBER_OPTIONS;

/** The other checked options, by the environment variable that sets each. */
const OTHER_OPTIONS = { secret: "AUTH_SECRET", setupToken: "SETUP_TOKEN", corsOrigins: "CORS_ORIGINS" } as const;

/** Every checked option's environment variable. */
export const OPTION_VARIABLES: Readonly<Record<CheckedOption, string | undefined>> = {
  ...OTHER_OPTIONS,
  ...(Object.fromEntries(Object.entries(WHOLE_NUMBER_OPTIONS).map(([name, spec]) => [name, (spec as WholeNumberSpec).env])) as Record<
    WholeNumberOption,
    string | undefined
  >),
};

function byteLength(value: string): number {
  return new TextEncoder().encode(value).byteLength;
}

function wholeNumber(spec: WholeNumberSpec, production: boolean): z.ZodNumber {
  const number = z
    .number()
    .int()
    .min(production ? (spec.productionMin ?? spec.min) : spec.min);
  return spec.max === undefined ? number : number.max(spec.max);
}

function rangeWords(spec: WholeNumberSpec, production: boolean): string {
  const min = production ? (spec.productionMin ?? spec.min) : spec.min;
  return spec.max === undefined ? `of at least ${min}` : `from ${min} to ${spec.max}`;
}

/** `*`, comma-separated origins, or a list of them; `null` for none. The problem of a bad entry becomes the issue. */
const corsOriginsSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value, context): CorsOrigins | null => {
    try {
      return parseCorsOrigins(typeof value === "string" || value === undefined ? value : value.join(","));
    } catch (error) {
      context.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

function optionsSchema(production: boolean) {
  const numbers = Object.fromEntries(
    Object.entries(WHOLE_NUMBER_OPTIONS).map(([name, spec]: [string, WholeNumberSpec]) => {
      const schema = wholeNumber(spec, production);
      return [name, spec.default === undefined ? schema.optional() : schema.default(spec.default)];
    }),
  ) as {
    [Name in WholeNumberOption]: (typeof WHOLE_NUMBER_OPTIONS)[Name] extends { default: number }
      ? z.ZodDefault<z.ZodNumber>
      : z.ZodOptional<z.ZodNumber>;
  };
  return z.object({
    secret: z
      .string()
      .refine((secret) => byteLength(secret) >= MIN_SECRET_BYTES)
      .optional(),
    // An empty setup token, like none, leaves setup open to the first caller.
    setupToken: z
      .string()
      .optional()
      .transform((token) => token || undefined)
      .refine((token) => token === undefined || byteLength(token) >= MIN_SETUP_TOKEN_BYTES),
    ...numbers,
    corsOrigins: corsOriginsSchema,
  });
}

/** The checked options with their defaults filled in. */
export type CheckedOptions = z.output<ReturnType<typeof optionsSchema>>;
/** The names of the options {@link checkOptions} checks. */
export type CheckedOption = keyof CheckedOptions;

/** How {@link checkOptions} reads and names what it checks. */
export interface CheckOptionsOptions {
  /** Production: `bcryptCost` may not go below 10. */
  readonly production?: boolean;
  /** The name to say for an option (an environment variable's, say). @default the option's name */
  readonly labelOf?: (option: CheckedOption) => string;
  /** The text the value was read from, repeated in the message. @default the value */
  readonly rawOf?: (option: CheckedOption) => string | undefined;
}

function problemOf(option: CheckedOption, label: string, raw: string, issue: z.core.$ZodIssue, production: boolean): string {
  if (option === "secret") return `${label} must be at least ${MIN_SECRET_BYTES} bytes`;
  if (option === "setupToken") return `${label} must be at least ${MIN_SETUP_TOKEN_BYTES} bytes (or unset for an anonymous setup)`;
  if (option === "corsOrigins") return `${label} must be '*' or comma-separated origins like https://app.example.com: ${issue.message}`;
  return `${label} must be a whole number ${rangeWords(WHOLE_NUMBER_OPTIONS[option], production)}, got '${raw}'`;
}

/**
 * Checks the options `createAuth` and `readSettings` share against their ranges and fills in
 * their defaults.
 *
 * @throws {ConfigurationError} naming the first option that cannot be used.
 */
export function checkOptions(input: Partial<Record<CheckedOption, unknown>>, options: CheckOptionsOptions = {}): CheckedOptions {
  const production = options.production === true;
  const schema = optionsSchema(production);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const order = Object.keys(schema.shape);
  const [issue] = [...parsed.error.issues].sort((a, b) => order.indexOf(String(a.path[0])) - order.indexOf(String(b.path[0])));
  const option = String(issue?.path[0]) as CheckedOption;
  const label = options.labelOf?.(option) ?? option;
  const raw = options.rawOf?.(option) ?? String(input[option]);
  throw new ConfigurationError(problemOf(option, label, raw, issue as z.core.$ZodIssue, production));
}
