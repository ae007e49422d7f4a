import { TEST_PASSWORD } from "./accounts.js";

/** A bcrypt hash, of any of its versions (`$2a$`, `$2b$`, `$2x$`, `$2y$`). */
const BCRYPT_HASH = /\$2[abxy]\$/;
/** Keys no answer may carry: passwords (`password`, `currentPassword`, `password_hash`…), hashes, the token version. */
const SECRET_KEY = /password|hash$|^token_?version$/i;

function secretKeys(value: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) secretKeys(item, `${path}[${index}]`, found);
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) found.push(`${path}.${key}`);
      secretKeys(item, `${path}.${key}`, found);
    }
  }
  return found;
}

/**
 * Every way a response gives a secret away: a bcrypt hash or the plain {@link TEST_PASSWORD} in its
 * text, or a secret key (`password`, `passwordHash`, `currentPassword`, `tokenVersion`…) at any depth
 * of its JSON body. Empty when it gives none away.
 */
export function findLeaks(response: { readonly text: string; readonly body: unknown }): string[] {
  const leaks: string[] = [];
  if (BCRYPT_HASH.test(response.text)) leaks.push("a bcrypt hash in the body");
  if (response.text.includes(TEST_PASSWORD)) leaks.push("the test password in the body");
  const keys = secretKeys(response.body, "$", []);
  if (keys.length > 0) leaks.push(`secret keys ${keys.join(", ")}`);
  return leaks;
}
