import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Seals short secrets for storage: AES-256-GCM under a key derived from the instance secret. */
export interface SecretBox {
  /** `plaintext` encrypted and authenticated, bound to `context` (a user id): `v1.<iv>.<ciphertext>.<tag>`. */
  seal(plaintext: string, context: string): string;
  /** The plaintext, or `null` when the value was sealed under another key or context, or altered. */
  open(sealed: string, context: string): string | null;
}

const CIPHER = "aes-256-gcm";
const VERSION = "v1";
/** GCM's recommended nonce size: 96 bits, random for each seal. */
const IV_BYTES = 12;
/** Separates this key from anything else ever derived from the same secret. */
const SALT = "domain-auth";
const INFO = "totp-secret/v1";

/**
 * A box whose key is HKDF-SHA-256 of the instance secret (`AUTH_SECRET`, its UTF-8 bytes). A new
 * instance secret cannot open what the old one sealed.
 */
export function createSecretBox(secret: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), SALT, INFO, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed, context) {
      const [version, iv, ciphertext, tag, ...rest] = sealed.split(".");
      if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) return null;
      try {
        const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
