/**
 * `@domain-auth/core/endpoints`: the catalog of auth endpoints — path, methods, the flag that
 * switches each, who may call it, its answers and errors — with no dependency, for tools that
 * show or check them (the wizard's hints). The server attaches bodies and handlers elsewhere.
 */
export { endpointFlagLabel, type Segmented } from "./api-paths.js";
export {
  AUTH_ENDPOINTS,
  type AuthOperationId,
  type AuthRoute,
  type CallerRequirement,
  type CatalogOperation,
  catalogOperations,
  ENDPOINT_HINTS,
  type EndpointEntry,
  type EndpointMethod,
  type EndpointOperation,
  type EndpointParameter,
  endpointFlagsOf,
  type FixedAuthRoute,
} from "./catalog.js";
