/**
 * The state document versions this hookpm reads and writes (D6: a newer one is never rewritten).
 * Apart from the schema, so that what must start fast need not load zod.
 */
export const STATE_VERSION = 1;
