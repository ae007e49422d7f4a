"use client";

import { OPENAPI_PATH } from "@domain-auth/core/policy";
import Link from "next/link";
import { useEffect, useRef } from "react";
import type { SwaggerRequest } from "swagger-ui-dist/swagger-ui-es-bundle.js";
import { foldDocumentAnswer, type SwaggerAnswer } from "@/lib/domain-auth/api-reference";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useSession } from "@/lib/domain-auth/session";
import "swagger-ui-dist/swagger-ui.css";

/**
 * Sends a request tried from the page with the session cookies of this origin (never elsewhere), so
 * it acts as the signed-in user, unless the user authorized a token of their own in Swagger UI's
 * dialog, a token or an API key (the `Authorization` header then wins). The page itself holds no token to add.
 */
function withSessionCookies(request: SwaggerRequest): SwaggerRequest {
  request.credentials = "same-origin";
  return request;
}

/** The document Swagger UI loads, each HEAD folded into its GET (one row where the API answers both). */
function foldedDocument(answer: SwaggerAnswer): SwaggerAnswer {
  return foldDocumentAnswer(answer, window.location.origin);
}

/** The class on `<html>` that turns on Swagger UI's own dark theme (its rules are `html.dark-mode .swagger-ui …`). */
const SWAGGER_DARK_MODE = "dark-mode";

/**
 * Swagger UI in the scheme the system asks for, as the pages follow it: its dark theme on while the
 * reference is open and `prefers-color-scheme` is dark, following a change, and off when the page goes.
 * A project that set the class itself keeps it as it is.
 */
function useSwaggerColorScheme(): void {
  useEffect(() => {
    const root = document.documentElement;
    if (root.classList.contains(SWAGGER_DARK_MODE)) return;
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => root.classList.toggle(SWAGGER_DARK_MODE, dark.matches);
    follow();
    dark.addEventListener("change", follow);
    return () => {
      dark.removeEventListener("change", follow);
      root.classList.remove(SWAGGER_DARK_MODE);
    };
  }, []);
}

/**
 * The API reference of this domain: Swagger UI, bundled with the app (its prebuilt bundle, loaded
 * when the page opens), rendering `/api/openapi.json` (each HEAD shown with its GET) in the pages'
 * type and colour scheme. "Try it out" sends requests to this origin only, as the signed-in user
 * (the session cookies go with them).
 */
export function ApiReference({ auth }: { readonly auth: AuthView | null }) {
  const session = useSession();
  const container = useRef<HTMLDivElement>(null);
  useSwaggerColorScheme();

  useEffect(() => {
    let cancelled = false;
    void import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUIBundle }) => {
      if (cancelled || !container.current) return;
      SwaggerUIBundle({
        domNode: container.current,
        url: OPENAPI_PATH,
        requestInterceptor: withSessionCookies,
        responseInterceptor: foldedDocument,
        tryItOutEnabled: true,
        deepLinking: false,
        defaultModelsExpandDepth: 0,
        // Swagger UI's server choice has no name of its own: screen readers announce it by this one.
        onComplete: () => container.current?.querySelector("select#servers")?.setAttribute("aria-label", "Server"),
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
        ) : session.status === "signed-in" ? (
          <>Requests you try here are sent as you ({session.user.email}), with your session cookie.</>
        ) : (
          <>
            {auth.endpoints.login ? <Link href="/login?next=%2Fdocs">Sign in</Link> : "Sign in"} to try operations that need a token, or use
            Authorize with a token of your own or an API key (<code>da_…</code>, from your profile).
          </>
        )}
      </p>
      {/* Swagger UI renders into this element with its own React: nothing of ours goes inside. */}
      <div ref={container} className="da-api-reference" />
    </>
  );
}
