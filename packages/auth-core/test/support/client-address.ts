import type { ApiRequest } from "../../src/index.js";

/** The header a test names a request's client address in, so that per-address limits apply as it chooses. */
export const ADDRESS_HEADER = "x-test-client-address";

/** The `clientAddress` option of an instance whose tests name addresses in {@link ADDRESS_HEADER}; one address for requests without it. */
export function clientAddressFromHeader(request: ApiRequest): string {
  return request.headers.get(ADDRESS_HEADER) ?? "198.51.100.1";
}
