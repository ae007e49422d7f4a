export { OPENAPI_PATH, type OpenApiDocument, openApiDocument } from "./document.js";
