import { MIN_PASSWORD_CHARACTERS } from "@domain-auth/core/password";

/**
 * What a new password must be, in the words people count in: characters. The 72-byte bound bcrypt
 * sets is said only when a password reaches it (the server's message then explains bytes).
 */
export const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_CHARACTERS} characters, and not a common password: a few unrelated words make a strong one.`;
