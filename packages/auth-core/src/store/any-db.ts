// Rows are shaped by domain.yaml at run time, so tables are typed loosely.
// biome-ignore lint/suspicious/noExplicitAny: table shapes come from the model at run time
export type AnyDB = Record<string, any>;
