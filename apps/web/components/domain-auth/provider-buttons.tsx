import { providerSignInPath } from "@domain-auth/core/policy";
import type { AuthView } from "@/lib/domain-auth/domain-view";

/** Props of {@link ProviderButtons}. */
export interface ProviderButtonsProps {
  readonly auth: Pick<AuthView, "segment" | "providers">;
  /** Where to come back to once signed in: a path of this app. */
  readonly destination: string;
}

/**
 * "Continue with <name>" for each provider of `auth.providers` (docs/providers.md): plain links, a
 * browser navigation to the provider and back, so the page's `form-action 'self'` holds.
 */
export function ProviderButtons({ auth, destination }: ProviderButtonsProps) {
  if (auth.providers.length === 0) return null;
  return (
    <nav className="da-providers" aria-label="Other ways to sign in">
      {auth.providers.map((provider) => (
        // A navigation to the API, which answers with a redirect to the provider: never a client-side route.
        <a key={provider.id} className="da-button da-provider" href={providerSignInPath(auth, provider.id, destination)}>
          Continue with {provider.name}
        </a>
      ))}
    </nav>
  );
}
