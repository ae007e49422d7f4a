export { type OpenApiDocument, openApiDocument } from "./document.js";
