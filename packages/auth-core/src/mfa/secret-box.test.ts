import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box.js";

const SECRET = "a-secret-for-tests-that-is-long-enough!";

describe("the secret box", () => {
  const box = createSecretBox(SECRET);

  it("opens what it sealed, for the same context", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXP", "user-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(box.open(sealed, "user-1")).toBe("JBSWY3DPEHPK3PXP");
  });

  it("seals the same text differently each time (a random nonce)", () => {
    expect(box.seal("same", "user-1")).not.toBe(box.seal("same", "user-1"));
  });

  it("refuses another context, another key, an altered value and garbage", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXP", "user-1");
    expect(box.open(sealed, "user-2")).toBeNull();
    expect(createSecretBox(`${SECRET}?`).open(sealed, "user-1")).toBeNull();
    const [version, iv, ciphertext, tag] = sealed.split(".") as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(box.open([version, iv, flipped.toString("base64url"), tag].join("."), "user-1")).toBeNull();
    for (const junk of ["", "v1", "v2.a.b.c", "v1.a.b.c.d", "v1...."]) expect(box.open(junk, "user-1")).toBeNull();
  });
});
