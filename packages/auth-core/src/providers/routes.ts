import { ResponseBodyError } from "openid-client";
import { requestEvents } from "../accounts/security-events.js";
import { secondStepOf } from "../accounts/sign-in.js";
import { sessionCookiesOf, sessionTokens, startSession } from "../accounts/signed-in-body.js";
import type { AuthServices, RouteContext } from "../context.js";
import { defineOperation } from "../endpoints/operation.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { json, noContent, type Reply, redirect } from "../http/responses.js";
import { afterSignIn } from "../policy/next-path.js";
import type { StoredUser } from "../store/rows.js";
import { FLOW_TTL_SECONDS, spendFlow, startFlow } from "./oauth-flow.js";
import { type ProviderClient, ProviderDeniedError } from "./provider-client.js";
import type { ProviderError } from "./provider-errors.js";
import { decideCallback } from "./provider-sign-in.js";
import { identityView, type LinkStarted, type ProviderSummary, providerSummaries } from "./provider-view.js";

/** `GET /api/<auth>/providers`: the providers people may sign in with, in declared order (none: an empty list). */
export const listProviders = defineOperation("listProviders", async ({ services }) => {
  const items: ProviderSummary[] = providerSummaries(services.auth.providers);
  return json(200, { items });
});

/** The client of the provider a path names; 404 for an id `auth.providers` does not declare. */
function clientOf(services: AuthServices, id: string): ProviderClient {
  const client = services.providers.client(id);
  if (!client) throw new ApiError("NOT_FOUND");
  return client;
}

/** A path of this origin as a `Location` header takes it: its encoded form (`/日本` → `/%E6%97%A5%E6%9C%AC`). */
function locationOf(path: string): string {
  const url = new URL(path, "http://origin.invalid");
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a refused callback sends the browser: the sign-in page (the profile, for a link), saying why in a sentence there. */
function refusedTo(code: ProviderError, cookies: readonly string[], page = "/login"): Reply {
  return redirect(`${page}?error=${code}`, cookies);
}

/**
 * `GET /api/<auth>/oauth/<provider>?next=`: a browser navigation from a sign-in button. 302 to the
 * provider with a new flow (docs/providers.md#the-flow), its flow cookie set for 10 minutes.
 */
export const startProviderSignIn = defineOperation("startProviderSignIn", async ({ context, services, request, path, query }) => {
  const client = clientOf(services, path.provider);
  // Each start stores a flow: one address cannot fill the table.
  if ((await services.providerThrottles.start.admit(context.clientAddress(request))) !== null) return refusedTo("TOO_MANY_ATTEMPTS", []);
  const redirectUri = services.providers.redirectUri(request, client.provider.id);
  if (!redirectUri) return refusedTo("OAUTH_FAILED", []);
  try {
    const { url, binding } = await startFlow(services.providers.identities, client, {
      purpose: "sign-in",
      next: afterSignIn(query.next),
      redirectUri,
      now: services.sessions.now(),
    });
    return redirect(url.href, [services.cookies.flowCookie(binding, FLOW_TTL_SECONDS)]);
  } catch (error) {
    // The provider could not be reached (discovery): a sentence on the sign-in page, the cause to onError.
    services.providers.report(error);
    return refusedTo("OAUTH_FAILED", []);
  }
});

/** Signs a user in after a provider: a second step first where they have a factor or must enrol one. */
async function signIn(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  user: StoredUser,
  flow: { readonly provider: string; readonly next: string | null },
  cleared: readonly string[],
): Promise<Reply> {
  if (services.auth.verifyEmail && !user.everVerified) return refusedTo("EMAIL_NOT_VERIFIED", cleared);
  const step = await secondStepOf(services, user);
  if (step.kind !== "none") {
    // The single-use token of the second step travels in an HttpOnly cookie, never in a URL.
    const mfaToken = await services.mfa.issueToken(user, step.kind === "challenge" ? "challenge" : "enrolment");
    const cookie = services.cookies.mfaCookie(mfaToken);
    const next = encodeURIComponent(afterSignIn(flow.next));
    const where = step.kind === "challenge" ? `second-factor&methods=${step.methods.join(",")}` : "enrolment";
    return redirect(`/login?step=${where}&next=${next}`, [...cleared, cookie]);
  }
  const issued = await startSession(context, services, user, request, { method: "provider", provider: flow.provider });
  const tokens = await sessionTokens(services, user, issued);
  return redirect(locationOf(afterSignIn(flow.next)), [...cleared, ...sessionCookiesOf(services, tokens)]);
}

/**
 * `GET /api/<auth>/oauth/<provider>/callback`: where the provider sends the browser back. The flow
 * is spent first (this browser's, unspent, in time: else `OAUTH_STATE`), then the code exchanged
 * and checked, then the person signed in, signed up or linked (docs/providers.md#who-signs-in).
 * Never JSON: every answer is a 302, and no refusal sets a session cookie.
 */
export const providerCallback = defineOperation("providerCallback", async ({ context, services, request, path, query }) => {
  const client = clientOf(services, path.provider);
  const cleared = [services.cookies.flowCookie("", 0)];
  if ((await services.providerThrottles.callback.admit(context.clientAddress(request))) !== null)
    return refusedTo("TOO_MANY_ATTEMPTS", cleared);
  const now = services.sessions.now();
  const spent = await spendFlow(services.providers.identities, query.state, services.cookies.flowBinding(request), now);
  if (!spent || spent.flow.provider !== client.provider.id) return refusedTo("OAUTH_STATE", cleared);
  const page = spent.flow.purpose === "link" ? "/profile" : "/login";
  if (query.error !== undefined) return refusedTo(query.error === "access_denied" ? "OAUTH_DENIED" : "OAUTH_FAILED", cleared, page);
  const callbackUrl = new URL(services.providers.redirectUri(request, client.provider.id) ?? "");
  callbackUrl.search = new URL(request.url).search;
  let profile: Awaited<ReturnType<ProviderClient["profile"]>>;
  try {
    profile = await client.profile(callbackUrl, spent.checks);
  } catch (error) {
    if (error instanceof ProviderDeniedError)
      return refusedTo(error.message === "access_denied" ? "OAUTH_DENIED" : "OAUTH_FAILED", cleared, page);
    // A code the provider refused (forged, spent, expired) is the caller's doing; anything else is the owner's to hear of.
    if (!(error instanceof ResponseBodyError)) services.providers.report(error);
    return refusedTo("OAUTH_FAILED", cleared, page);
  }
  const events = requestEvents(context, services, request);
  try {
    const scope = { context, services, identities: services.providers.identities, events, now };
    const outcome = await decideCallback(scope, spent.flow, profile);
    if (outcome.kind === "refused") return refusedTo(outcome.code, cleared, page);
    if (outcome.kind === "linked") return redirect(`/profile?connected=${encodeURIComponent(spent.flow.provider)}`, cleared);
    return await signIn(context, services, request, outcome.user, spent.flow, cleared);
  } catch (error) {
    // A person never gets JSON here: a race lost to another sign-up, a database that is down, go to the page as a sentence.
    if (!(error instanceof ApiError)) services.providers.report(error);
    return refusedTo("OAUTH_FAILED", cleared, page);
  }
});

/** `GET /api/<auth>/identities`: the caller's accounts at providers, oldest first. */
export const listIdentities = defineOperation("listIdentities", async ({ services, caller }) => {
  const items = (await services.providers.identities.listOf(caller.user.id)).map(identityView);
  return json(200, { items });
});

/**
 * `POST /api/<auth>/identities/<provider>`: starts a flow that links the caller's account at the
 * provider (a recent sign-in first): `{ url }` to navigate to, with the flow cookie. It never
 * signs anyone in; the callback returns to `/profile`.
 */
export const linkIdentity = defineOperation("linkIdentity", async ({ context, services, request, caller, path }) => {
  const client = clientOf(services, path.id);
  // Each start stores a flow: one address cannot fill the table (as a sign-in's start).
  const wait = await services.providerThrottles.start.admit(context.clientAddress(request));
  if (wait !== null) throw new ApiError("TOO_MANY_ATTEMPTS", { headers: { "retry-after": String(wait) } });
  const redirectUri = services.providers.redirectUri(request, client.provider.id);
  if (!redirectUri) throw new ApiError("BAD_REQUEST", { message: "Connecting an account needs the site's address: set APP_URL" });
  const { url, binding } = await startFlow(services.providers.identities, client, {
    purpose: "link",
    userId: caller.user.id,
    sessionId: caller.session.id,
    tokenVersion: caller.user.tokenVersion,
    redirectUri,
    now: services.sessions.now(),
  });
  const answer: LinkStarted = { url: url.href };
  return { ...json(200, answer), cookies: [services.cookies.flowCookie(binding, FLOW_TTL_SECONDS)] };
});

/**
 * `DELETE /api/<auth>/identities/<id>`: disconnects one of the caller's accounts; 404 for another
 * user's, 409 `LAST_SIGN_IN_METHOD` when the user would keep no password, passkey or other account.
 */
export const unlinkIdentity = defineOperation("unlinkIdentity", async ({ context, services, request, caller, path }) => {
  const events = requestEvents(context, services, request);
  const outcome = await services.providers.unlink(caller.user, path.id, (trx, removed) =>
    events.write(trx, {
      type: "identity.unlinked",
      userId: caller.user.id,
      email: caller.user.email,
      actorId: caller.user.id,
      sessionId: caller.session?.id ?? null,
      detail: { provider: removed.provider },
    }),
  );
  if (outcome === "not-found") throw new ApiError("NOT_FOUND");
  if (outcome === "last") throw new ApiError("LAST_SIGN_IN_METHOD");
  return noContent();
});
