import { z } from "zod";

const requiredString = (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : "must be a string");

/** The body of `POST login`: what it validates, and what the OpenAPI document describes. */
export const loginBodySchema = z.object({
  email: z
    .string({ error: requiredString })
    .max(1024, "is too long")
    // PostgreSQL text cannot hold U+0000 (the lookup and the throttle key would fail); no account has it.
    .refine((email) => !email.includes("\u0000"), "must not contain U+0000"),
  password: z.string({ error: requiredString }).max(1024, "is too long"),
});

/** The body of `POST refresh`: what it validates, and what the OpenAPI document describes. */
export const refreshBodySchema = z.object({
  refreshToken: z.string({ error: requiredString }).min(1, "must not be empty").max(1024, "is too long"),
});
