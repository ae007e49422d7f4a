export { AUTH_OPERATIONS, type AuthOperation } from "./auth-operations.js";
export { OPENAPI_PATH, type OpenApiDocument, openApiDocument } from "./document.js";
