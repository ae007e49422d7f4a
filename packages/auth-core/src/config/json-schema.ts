import { z } from "zod";
import { domainFileSchema } from "./schema.js";

/** The JSON Schema of `domain.yaml`, for editors (yaml-language-server) and other tools. */
export function domainJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(domainFileSchema, { target: "draft-2020-12", unrepresentable: "any" }),
    $id: "https://domain-auth.dev/schema/domain.schema.json",
    title: "domain.yaml",
  };
}
