import { authFromEnv } from "@domain-auth/core";

/** Every /api/* request goes to domain-auth's router; each one is answered per request, never prerendered. */
async function handle(request: Request): Promise<Response> {
  const auth = await authFromEnv();
  return auth.handle(request);
}

export { handle as DELETE, handle as GET, handle as HEAD, handle as OPTIONS, handle as PATCH, handle as POST, handle as PUT };
