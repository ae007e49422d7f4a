import { OPENAPI_PATH } from "@domain-auth/core/policy";

/** A path of an OpenAPI document: its operations by method, as JSON data. */
type PathItem = Readonly<Record<string, unknown>>;

/** The part of an OpenAPI document the API reference changes. */
export interface OpenApiJson {
  readonly paths?: Readonly<Record<string, PathItem>>;
}

/** What a GET of the reference says of the HEAD folded into it. */
export const HEAD_NOTE = "`HEAD` is answered here too: the same status and headers, without the body.";

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function foldPathItem(item: PathItem): PathItem {
  const { head, ...others } = item;
  const get = others.get;
  if (head === undefined || !isRecord(get)) return item;
  const description =
    typeof get.description === "string" && get.description.trim() !== "" ? `${get.description}\n\n${HEAD_NOTE}` : HEAD_NOTE;
  return { ...others, get: { ...get, description } };
}

/**
 * The document as the API reference shows it: the API answers HEAD wherever it answers GET, and the
 * document says so with a `head` operation beside each `get`, which Swagger UI would show as a row of
 * its own; here each is folded into its GET (whose description says so). A HEAD without a GET stays.
 */
export function foldHeadIntoGet<T extends OpenApiJson>(document: T): T {
  if (!isRecord(document.paths)) return document;
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path, isRecord(item) ? foldPathItem(item) : item]),
  );
  return { ...document, paths };
}

/** An answer as Swagger UI's requests hand it to a response interceptor. */
export interface SwaggerAnswer {
  url: string;
  text?: string;
  body?: unknown;
  obj?: unknown;
  data?: unknown;
}

/**
 * Swagger UI's response interceptor for the reference: the OpenAPI document it loads comes with each
 * HEAD folded into its GET ({@link foldHeadIntoGet}); every other answer (what "Try it out" sends) as it is.
 */
export function foldDocumentAnswer<T extends SwaggerAnswer>(answer: T, origin: string): T {
  let document: unknown;
  try {
    const url = new URL(answer.url, origin);
    if (url.origin !== origin || url.pathname !== OPENAPI_PATH || typeof answer.text !== "string") return answer;
    document = JSON.parse(answer.text);
  } catch {
    return answer;
  }
  if (!isRecord(document)) return answer;
  const folded = foldHeadIntoGet(document as OpenApiJson);
  const text = JSON.stringify(folded);
  return Object.assign(answer, { text, data: text, body: folded, obj: folded });
}
