import { AUTH_ENDPOINTS, type Segmented } from "@domain-auth/core/endpoints";
import { providerSignInPath } from "@domain-auth/core/policy";
import { PROVIDER_TYPES, type ProviderType, providerVariable } from "@domain-auth/core/vocabulary";

/**
 * The provider types whose declaration needs a key besides `type`, which only the file can say
 * (docs/providers.md): an `oidc` provider its `issuer`, a `microsoft` one its `tenant` (the directory).
 */
export const NEEDS_KEY = { oidc: "issuer", microsoft: "tenant" } as const satisfies Partial<Record<ProviderType, string>>;

/** A preset the wizard declares by itself, as `<type>: { type: <type> }`: one that needs nothing else. */
export type PresetProvider = Exclude<ProviderType, keyof typeof NEEDS_KEY>;

/** The presets the wizard declares, in the core's order: what `--providers` takes and the providers question offers. */
export const PRESET_PROVIDERS: readonly PresetProvider[] = PROVIDER_TYPES.filter((type): type is PresetProvider => !(type in NEEDS_KEY));

/** The key a provider type needs besides `type` (`issuer`, `tenant`), or `undefined`. */
export function neededKey(type: string): string | undefined {
  return Object.hasOwn(NEEDS_KEY, type) ? NEEDS_KEY[type as keyof typeof NEEDS_KEY] : undefined;
}

/** Whether a value is the name of a preset. */
export function isPresetProvider(value: unknown): value is PresetProvider {
  return (PRESET_PROVIDERS as readonly unknown[]).includes(value);
}

/**
 * The preset a declared provider is, when the wizard manages it: one of {@link PRESET_PROVIDERS}
 * declared under an id that is its type (`google: { type: google }`). `undefined` for any other: an
 * `oidc` or `microsoft` provider, a preset under another id (`gh: { type: github }`), an id whose type
 * is another one.
 */
export function managedPreset(id: unknown, type: unknown): PresetProvider | undefined {
  return id === type && isPresetProvider(type) ? type : undefined;
}

/** The variables that hold a provider's client id and secret, in that order: `AUTH_PROVIDER_<ID>_CLIENT_ID`, `…_CLIENT_SECRET`. */
export function providerVariables(id: string): readonly [string, string] {
  return [providerVariable(id, "CLIENT_ID"), providerVariable(id, "CLIENT_SECRET")];
}

/** Where `next dev` serves the app: the origin of the callback URLs to register for development. */
export const DEV_ORIGIN = "http://localhost:3000";

// The catalog's callback route is its sign-in route with a suffix: `oauth/{provider}` and `oauth/{provider}/callback`.
const CALLBACK_SUFFIX = AUTH_ENDPOINTS.providerCallback.path.slice(AUTH_ENDPOINTS.providerSignIn.path.length);

/**
 * The callback URL to register at a provider for development: where it sends people back once they
 * signed in there. In production `APP_URL` takes the place of {@link DEV_ORIGIN}.
 * @example devCallbackUrl({ segment: "user" }, "google") // "http://localhost:3000/api/user/oauth/google/callback"
 */
export function devCallbackUrl(authEntity: Segmented, id: string): string {
  return `${DEV_ORIGIN}${providerSignInPath(authEntity, id)}${CALLBACK_SUFFIX}`;
}
