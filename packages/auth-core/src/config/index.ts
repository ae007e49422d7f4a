export { type Diagnostic, DomainConfigError, formatDiagnostic, formatPath, type PathSegment, type Severity } from "./diagnostics.js";
export { domainJsonSchema } from "./json-schema.js";
export {
  type BridgeManifest,
  MANIFEST_CONDITIONS,
  type ManifestCondition,
  type ManifestTemplate,
  type ManifestValidation,
  selectTemplates,
  validateManifestText,
} from "./manifest.js";
export type { AuthModel, DomainModel, EntityModel, FieldModel, PermissionMap } from "./model.js";
export {
  AUTH_TYPES,
  type AuthType,
  type DomainDeclaration,
  domainFileSchema,
  ENDPOINTS,
  type Endpoint,
  FIELD_TYPES,
  type FieldType,
  OPERATIONS,
  type Operation,
  PLANNED_AUTH_TYPES,
} from "./schema.js";
export { type DomainValidation, loadDomain, validateDomainText } from "./validate.js";
export { closestMatch, ENTITY_NAME, IDENTIFIER, setupRoleOf, toSegment } from "./vocabulary.js";
