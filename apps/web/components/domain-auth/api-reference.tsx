"use client";

import { OPENAPI_PATH } from "@domain-auth/core/policy";
import Link from "next/link";
import { useEffect, useRef } from "react";
import type { SwaggerRequest } from "swagger-ui-dist/swagger-ui-es-bundle.js";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { readToken, useSession } from "@/lib/domain-auth/session";
import "swagger-ui-dist/swagger-ui.css";

/**
 * Gives a request tried from the page this tab's token, unless the user authorized another one in
 * Swagger UI's dialog. Read when the request is sent, so a refreshed token is the one used.
 */
function withTabToken(request: SwaggerRequest): SwaggerRequest {
  const token = readToken();
  const hasAuthorization = Object.keys(request.headers).some((name) => name.toLowerCase() === "authorization");
  if (token && !hasAuthorization) request.headers.Authorization = `Bearer ${token}`;
  return request;
}

/**
 * The API reference of this domain: Swagger UI, bundled with the app (its prebuilt bundle, loaded
 * when the page opens), rendering `/api/openapi.json`. "Try it out" sends requests to this origin
 * only, with the signed-in tab's token.
 */
export function ApiReference({ auth }: { readonly auth: AuthView | null }) {
  const session = useSession();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    void import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUIBundle }) => {
      if (cancelled || !container.current) return;
      SwaggerUIBundle({
        domNode: container.current,
        url: OPENAPI_PATH,
        requestInterceptor: withTabToken,
        tryItOutEnabled: true,
        deepLinking: false,
        defaultModelsExpandDepth: 0,
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <>
      <p className="da-lead">
        The OpenAPI 3.1 document of this API is at <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>.{" "}
        {auth === null ? (
          "Every operation is open."
        ) : session ? (
          <>Requests you try here carry your token ({session.claims.email}).</>
        ) : session === null ? (
          <>
            {auth.endpoints.login ? <Link href="/login">Sign in</Link> : "Sign in"} to try operations that need a token, or use Authorize
            with a token of your own.
          </>
        ) : null}
      </p>
      {/* Swagger UI renders into this element with its own React: nothing of ours goes inside. */}
      <div ref={container} className="da-api-reference" />
    </>
  );
}
