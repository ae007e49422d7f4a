// The part of swagger-ui-dist's API the API reference uses (the package ships no types).
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  /** A request Swagger UI is about to send; an interceptor may change it. */
  export interface SwaggerRequest {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: unknown;
    /** The `credentials` mode of the `fetch` that sends it. */
    credentials?: RequestCredentials;
  }

  /** An answer Swagger UI received (the document it loads, or what "Try it out" sent); an interceptor may change it. */
  export interface SwaggerResponse {
    url: string;
    status?: number;
    text?: string;
    body?: unknown;
    obj?: unknown;
    data?: unknown;
  }

  export interface SwaggerUIOptions {
    domNode: HTMLElement;
    url: string;
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest | Promise<SwaggerRequest>;
    responseInterceptor?: (response: SwaggerResponse) => SwaggerResponse | Promise<SwaggerResponse>;
    tryItOutEnabled?: boolean;
    deepLinking?: boolean;
    defaultModelsExpandDepth?: number;
    docExpansion?: "list" | "full" | "none";
    /** Called once the document is loaded and rendered. */
    onComplete?: () => void;
  }

  /** Renders Swagger UI into `domNode`, with the React it bundles. */
  export default function SwaggerUIBundle(options: SwaggerUIOptions): unknown;
}
