import { kibibytes, MAX_BODY_BYTES, MAX_HEADER_BYTES } from "./limits.js";

/** Every error code the API answers with, its status and default message. */
export const ERROR_CODES = {
  NOT_FOUND: { status: 404, message: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed" },
  UNAUTHENTICATED: { status: 401, message: "Authentication required" },
  INVALID_CREDENTIALS: { status: 401, message: "Invalid email or password" },
  INVALID_REFRESH_TOKEN: { status: 401, message: "The refresh token is invalid, spent or expired" },
  INVALID_MFA_TOKEN: { status: 401, message: "This sign-in has expired or its second step was already used; sign in again" },
  INVALID_MFA_CODE: { status: 401, message: "The code is wrong, expired or already used" },
  INVALID_PASSKEY: { status: 401, message: "The passkey was not accepted, or its sign-in expired; try again" },
  FORBIDDEN: { status: 403, message: "You are not allowed to do this" },
  FORBIDDEN_ORIGIN: { status: 403, message: "This request must come from the app's own origin" },
  REAUTHENTICATION_REQUIRED: {
    status: 403,
    message: "Confirm it is you: send currentPassword, or sign in again, to do this",
  },
  EMAIL_NOT_VERIFIED: { status: 403, message: "Confirm your email address first: follow the link we sent you" },
  INVALID_RESET_TOKEN: { status: 400, message: "The link is invalid, used, superseded by a newer one, or expired" },
  INVALID_VERIFICATION_TOKEN: { status: 400, message: "The verification link is invalid, used, superseded by a newer one, or expired" },
  SETUP_COMPLETE: { status: 409, message: "Setup already complete" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Send the body as application/json" },
  PAYLOAD_TOO_LARGE: { status: 413, message: `The body is larger than ${kibibytes(MAX_BODY_BYTES)}` },
  INVALID_BODY: { status: 400, message: "The body is not valid" },
  INVALID_QUERY: { status: 400, message: "The query string is not valid" },
  TOO_MANY_ATTEMPTS: { status: 429, message: "Too many failed sign-in attempts; try again later" },
  EMAIL_TAKEN: { status: 409, message: "An account with this email already exists" },
  CONFLICT: { status: 409, message: "A record with this value already exists" },
  LAST_ADMIN: { status: 409, message: "This is the last administrator" },
  LAST_SIGN_IN_METHOD: {
    status: 409,
    message: "This is your last way to sign in: set a password, add a passkey or connect another account first",
  },
  LAST_OWNER: { status: 409, message: "This organization needs another member with its first role first" },
  ORGANIZATION_NOT_EMPTY: { status: 409, message: "This organization still holds records: delete them first" },
  INVALID_INVITATION: { status: 400, message: "The invitation is invalid, used, replaced by a newer one, or expired" },
  MAIL_NOT_CONFIGURED: { status: 409, message: "This server sends no e-mail, so it cannot send invitations: configure SMTP first" },
  BAD_REQUEST: { status: 400, message: "The request could not be read" },
  HEADERS_TOO_LARGE: { status: 431, message: `The request headers are larger than ${kibibytes(MAX_HEADER_BYTES)}` },
  REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive" },
  UNAVAILABLE: { status: 503, message: "The service is temporarily unavailable; try again" },
  INTERNAL_ERROR: { status: 500, message: "Internal error" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem in a request body or query: where, and what. */
export interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The body of every error response. */
export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  readonly issues?: readonly Issue[];
}

/** An expected failure that becomes an error response; `cause` keeps the underlying error. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: readonly Issue[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    options: { message?: string; issues?: readonly Issue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? ERROR_CODES[code].message, { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }

  /** The JSON body sent for this error. */
  toBody(): ErrorBody {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }
}

/** A decision of a rule, as `policy/` makes them (`Verdict`): allowed, or refused with the code and sentence to answer. */
export type Decided = { readonly allowed: true } | { readonly allowed: false; readonly code: ErrorCode; readonly message: string };

/**
 * Turns a policy refusal into the error it answers with; lets an allowed verdict through.
 * @throws {ApiError} with the refusal's code and message.
 */
export function enforce(verdict: Decided): void {
  if (!verdict.allowed) throw new ApiError(verdict.code, { message: verdict.message });
}
