import { createHash, randomBytes } from "node:crypto";
import { API_KEY_PREFIX } from "../policy/api-keys.js";

/** Random bytes in a key: 256 bits. */
const KEY_BYTES = 32;

/** A new API key: `da_` and 32 random bytes, base64url. Only its {@link hashApiKey} is stored. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString("base64url")}`;
}

/** A new key id: 128 random bits, base64url (what lists show and `DELETE api-keys/<id>` takes). */
export function newApiKeyId(): string {
  return randomBytes(16).toString("base64url");
}

/** The SHA-256 of a key, base64url: what the table holds and is searched by. A key is random enough that no slow hash is needed. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("base64url");
}
