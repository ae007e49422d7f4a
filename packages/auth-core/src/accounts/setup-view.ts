import { z } from "zod";

/** `setup`'s status (docs/api.md#setup): whether the first account is still to be made, and whether it needs the setup token. */
export const setupStatusSchema = z.object({
  setupRequired: z.boolean(),
  setupTokenRequired: z
    .boolean()
    .optional()
    .describe("Present while setup is required: `true` when the server was started with `SETUP_TOKEN`."),
});

/** What `GET setup` answers. */
export type SetupStatus = z.output<typeof setupStatusSchema>;
