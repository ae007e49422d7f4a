const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const UNAVAILABLE_PG_CODES = new Set(["53300", "55P03", "57014", "57P01", "57P02", "57P03", "40001", "40P01"]);

interface DriverError {
  code?: string;
  message?: string;
  constraint?: string;
}

/** The column of a unique-constraint violation, or `undefined` when `error` is not one. */
export function uniqueViolationColumn(error: unknown): string | undefined {
  const { code, message = "", constraint } = (error ?? {}) as DriverError;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return message.split(":").at(-1)?.split(",")[0]?.trim().split(".").at(-1) ?? "";
  }
  if (code === "23505") {
    // `<table>__<column>__unique`: a column name may itself contain `__`.
    const match = /^[^_]+(?:_[^_]+)*__(.+)__unique$/.exec(constraint ?? "");
    return match?.[1] ?? "";
  }
  return undefined;
}

/** `true` when the database is locked, overloaded or unreachable: worth a 503, not a 500. */
export function isUnavailableError(error: unknown): boolean {
  const { code = "", message = "" } = (error ?? {}) as DriverError;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED") || code.startsWith("SQLITE_IOERR") || code === "SQLITE_FULL")
    return true;
  if (code.startsWith("08") || UNAVAILABLE_PG_CODES.has(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|pool is (?:ending|closed)/i.test(
    message,
  );
}

/** `true` for a foreign-key violation: a tenant record written into an organization deleted meanwhile, or one deleted while it has records. */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = (error ?? {}) as DriverError;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
