import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import type { ApiClient, ApiResult, CallOptions } from "./client.js";
import { clientOf } from "./client.js";

type Described = {
  parameters?: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

/** One way the server and its document disagree about an exchange. */
export interface Disagreement {
  readonly request: string;
  readonly problem: string;
}

/**
 * Checks exchanges against an OpenAPI document as a validating gateway would: the path and method
 * must be documented (a fixed path before a templated one), the query's parameters declared and
 * valid, the JSON body valid against the request schema (or none sent where none is documented),
 * the status documented and the answer valid against its schema.
 */
export class Conformance {
  readonly disagreements: Disagreement[] = [];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<Record<string, unknown>, ValidateFunction>();
  private readonly routes: { pattern: RegExp; path: string; fixed: boolean }[];

  constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    this.ajv.addFormat("email", true).addFormat("password", true).addFormat("date-time", true);
    for (const [name, schema] of Object.entries(document.components.schemas)) this.ajv.addSchema(schema, `#/components/schemas/${name}`);
    this.routes = Object.keys(document.paths)
      .map((path) => ({
        path,
        fixed: !path.includes("{"),
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, "[^/]+")}$`),
      }))
      .sort((a, b) => Number(b.fixed) - Number(a.fixed));
  }

  private validator(schema: Record<string, unknown>): ValidateFunction {
    let found = this.compiled.get(schema);
    if (!found) {
      found = this.ajv.compile(schema);
      this.compiled.set(schema, found);
    }
    return found;
  }

  /** What is wrong with `value` by `schema`, as one line; `null` when nothing is. */
  private problemOf(what: string, schema: Record<string, unknown>, value: unknown): string | null {
    const validate = this.validator(schema);
    return validate(value) ? null : `${what}: ${this.ajv.errorsText(validate.errors)}`;
  }

  /** Records what is wrong with one exchange, if anything. */
  record(method: string, target: string, body: unknown, result: ApiResult): void {
    const url = new URL(target, "http://localhost");
    const request = `${method} ${url.pathname}${url.search}`;
    const route = this.routes.find((candidate) => candidate.pattern.test(url.pathname));
    const described = route && (this.document.paths[route.path]?.[method.toLowerCase()] as Described | undefined);
    if (!described) {
      // A gateway refuses what the document does not list; so does the server, with 404 or 405.
      if (result.status !== 404 && result.status !== 405) {
        this.disagreements.push({ request, problem: `not in the document, but answered ${result.status}` });
      }
      return;
    }
    // A request the document refuses and the server refuses too is an agreement; either one
    // accepting what the other refuses is not.
    const refused = this.requestProblems(described, url, body);
    const accepted = result.status < 400;
    for (const problem of accepted ? refused : []) this.disagreements.push({ request, problem: `the server accepted it, but ${problem}` });
    const code = (result.body as { code?: unknown } | null)?.code;
    if (refused.length === 0 && (code === "INVALID_BODY" || code === "INVALID_QUERY")) {
      this.disagreements.push({ request, problem: `the document allows it, but the server refused it: ${result.text}` });
    }
    const response = described.responses[String(result.status)];
    if (!response) {
      this.disagreements.push({ request, problem: `status ${result.status} is not documented` });
      return;
    }
    const schema = response.content?.["application/json"]?.schema;
    const answer = schema && this.problemOf(`answer ${result.status}`, schema, result.body);
    if (answer) this.disagreements.push({ request, problem: answer });
    if (!schema && result.text !== "") {
      this.disagreements.push({ request, problem: `answer ${result.status} has a body the document does not describe` });
    }
  }

  /** What the document refuses of a request: its query parameters and its body. */
  private requestProblems(described: Described, url: URL, body: unknown): string[] {
    const problems: string[] = [];
    const parameters = (described.parameters ?? []).filter((parameter) => parameter.in === "query");
    for (const [name, value] of url.searchParams) {
      const parameter = parameters.find((candidate) => candidate.name === name);
      if (!parameter) {
        problems.push(`query parameter ${name} is not documented`);
        continue;
      }
      const schema = parameter.schema ?? {};
      const typed = schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
      const problem = this.problemOf(`query parameter ${name}`, schema, typed);
      if (problem) problems.push(problem);
    }
    const documented = described.requestBody?.content["application/json"]?.schema;
    if (body === undefined) {
      if (described.requestBody?.required) problems.push("the document requires a body");
    } else if (!documented) problems.push("a body was sent where the document has none");
    else {
      const problem = this.problemOf("request body", documented, body);
      if (problem) problems.push(problem);
    }
    return problems;
  }

  /** A client whose every exchange is checked (as a validating proxy in front of `client` would). */
  over(client: ApiClient): ApiClient {
    return clientOf(async (method, path, body, options?: CallOptions) => {
      const result = await client.call(method, path, body, options);
      this.record(method, path, body, result);
      return result;
    });
  }
}
