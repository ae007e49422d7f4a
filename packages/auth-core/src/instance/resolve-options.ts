import { clientAddressOf, PEER_ADDRESS_HEADER, UNKNOWN_ADDRESS } from "../client-address.js";
import type { DomainModel } from "../config/index.js";
import { providerVariable } from "../config/providers.js";
import type { EventListener } from "../events/event-log.js";
import type { ApiRequest } from "../http/api-request.js";
import { type CorsPolicy, createCorsPolicy } from "../http/cors.js";
import { type CheckedOptions, ConfigurationError, checkAppUrl, checkOptions } from "../options.js";
import { type BcryptChoice, bcryptChoice, resolveBcrypt } from "../password/bcrypt-library.js";
import type { ProviderCredentials } from "../providers/provider-client.js";
import { createSetupTokenCheck, type SetupTokenCheck } from "../tokens/setup-token.js";
import { MIN_SECRET_BYTES } from "../tokens/tokens.js";
import type { CreateAuthOptions } from "./auth.js";

/** The options of an instance, checked, with every default filled in: what its services and pipeline are made from. */
export interface InstanceOptions extends CheckedOptions {
  readonly now: () => number;
  /** The app's public origin, checked; `undefined` when not given. */
  readonly appUrl: string | undefined;
  /** `null` when setup is open to the first caller. */
  readonly setupTokenCheck: SetupTokenCheck | null;
  /** `null` when only the same origin may call (no `corsOrigins`). */
  readonly cors: CorsPolicy | null;
  readonly clientAddress: (request: ApiRequest) => string;
  readonly onError: (error: unknown) => void;
  /** `undefined` when nobody listens. */
  readonly onEvent: EventListener | undefined;
  /** The `bcryptLibrary` option, or the AUTH_BCRYPT_LIBRARY default. */
  readonly bcryptLibrary: BcryptChoice;
  /** Each declared provider's client id and secret, checked. */
  readonly providers: Readonly<Record<string, ProviderCredentials>>;
}

/**
 * The `providers` option, checked against the model: every provider `auth.providers` declares has a
 * client id and secret, and no secret is given for a provider it does not declare (a typo).
 */
function checkProviders(options: CreateAuthOptions, model: DomainModel): Readonly<Record<string, ProviderCredentials>> {
  const given = options.providers ?? {};
  const declared = model.auth?.providers ?? [];
  for (const provider of declared) {
    const credentials = given[provider.id];
    for (const part of ["clientId", "clientSecret"] as const) {
      const value = credentials?.[part];
      if (typeof value !== "string" || value === "") {
        const variable = providerVariable(provider.id, part === "clientId" ? "CLIENT_ID" : "CLIENT_SECRET");
        throw new ConfigurationError(`providers.${provider.id}.${part} is required (${variable}): auth.providers declares ${provider.id}`);
      }
    }
  }
  const unknown = Object.keys(given).find((id) => !declared.some((provider) => provider.id === id));
  if (unknown !== undefined) throw new ConfigurationError(`providers.${unknown} is not a provider of auth.providers`);
  return given;
}

/** The bcrypt choice, checked before anything is opened: a bad value, or a native module asked for that does not load, stops here. */
function checkBcryptLibrary(choice: BcryptChoice | undefined): BcryptChoice {
  try {
    const checked = bcryptChoice(choice);
    if (checked === "bcrypt") resolveBcrypt(checked);
    return checked;
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
}

/** Finds a request's client address, saying once per instance when one arrives without a recorded address. */
function addressFinder(trustProxy: number): (request: ApiRequest) => string {
  let warned = false;
  return (request) => {
    const address = clientAddressOf(request, trustProxy);
    if (address === UNKNOWN_ADDRESS && !warned) {
      warned = true;
      console.warn(
        `domain-auth: a request came without a recorded client address (${PEER_ADDRESS_HEADER}), so such callers share one login-throttling bucket; serve the app through server.mjs or createNodeListener, or set TRUST_PROXY behind a proxy`,
      );
    }
    return address;
  };
}

/**
 * Checks `createAuth`'s options once, before anything is opened: the shared ranges of
 * {@link checkOptions}, then what the domain needs of them.
 *
 * @throws {ConfigurationError} naming the first option that cannot be used.
 */
export function resolveOptions(options: CreateAuthOptions, model: DomainModel): InstanceOptions {
  const checked = checkOptions(options);
  const auth = model.auth;
  if (auth && checked.secret === undefined)
    throw new ConfigurationError(`a secret of at least ${MIN_SECRET_BYTES} bytes is required with auth.type jwt`);
  if (options.onEvent !== undefined && typeof options.onEvent !== "function")
    throw new ConfigurationError("onEvent must be a function that receives each security event");
  if (auth?.verifyEmail && !options.mail)
    throw new ConfigurationError("auth.verifyEmail is true but no e-mail is configured: users could never confirm their address");
  return {
    ...checked,
    now: options.now ?? Date.now,
    appUrl: checkAppUrl(options.appUrl, "appUrl"),
    setupTokenCheck: checked.setupToken ? createSetupTokenCheck(checked.setupToken) : null,
    cors: checked.corsOrigins && createCorsPolicy(checked.corsOrigins),
    clientAddress: options.clientAddress ?? addressFinder(checked.trustProxy),
    onError: options.onError ?? ((error: unknown) => console.error("domain-auth: unexpected error", error)),
    onEvent: options.onEvent,
    bcryptLibrary: checkBcryptLibrary(options.bcryptLibrary),
    providers: checkProviders(options, model),
  };
}
