import { MAX_PASSWORD_BYTES, MIN_PASSWORD_BYTES } from "@domain-auth/core/policy";

/** What a new password must be, counted the way the server counts it: in UTF-8 bytes. */
export const NEW_PASSWORD_HINT = `${MIN_PASSWORD_BYTES} to ${MAX_PASSWORD_BYTES} bytes: most letters count 1, accented letters and emoji 2 to 4.`;
