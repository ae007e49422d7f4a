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
export type {
  AuthModel,
  DomainModel,
  EntityModel,
  FieldModel,
  MfaModel,
  OrganizationsModel,
  PermissionMap,
  ProviderModel,
} from "./model.js";
export { type DomainDeclaration, domainFileSchema } from "./schema.js";
export { type DomainValidation, loadDomain, validateDomainText } from "./validate.js";
