import type { AuthServices } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { RelyingParty } from "../mfa/relying-party.js";

/** The relying party of a request (docs/mfa.md); 400 for a request with no host to be one. */
export function requireRelyingParty(services: AuthServices, request: ApiRequest): RelyingParty {
  const rp = services.passkeys.relyingParty(request);
  if (!rp) throw new ApiError("BAD_REQUEST", { message: "Passkeys need the site's host: set APP_URL" });
  return rp;
}
