import { describe, expect, it } from "vitest";
import { clientAddressOf, PEER_ADDRESS_HEADER } from "./client-address.js";

const request = (headers: Record<string, string>) => new Request("http://localhost/", { headers });

describe("client address", () => {
  it("uses the recorded peer address and ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(clientAddressOf(request({ [PEER_ADDRESS_HEADER]: "10.0.0.1", "x-forwarded-for": "6.6.6.6" }), 0)).toBe("10.0.0.1");
  });

  it("counts trusted hops from the right of X-Forwarded-For", () => {
    const headers = { [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.9" };
    expect(clientAddressOf(request(headers), 1)).toBe("10.0.0.9");
    expect(clientAddressOf(request(headers), 2)).toBe("198.51.100.4");
  });

  it("falls back to the peer, then to one shared bucket", () => {
    expect(clientAddressOf(request({ [PEER_ADDRESS_HEADER]: "10.0.0.3" }), 1)).toBe("10.0.0.3");
    expect(clientAddressOf(request({}), 0)).toBe("unknown");
  });
});
