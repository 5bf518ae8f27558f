import { readFailureReason, readRegularFile } from '../io/read-regular-file.js';
import { join } from 'node:path';
import { z } from '../json/zod.js';
import { parseJson } from '../json/parse-json.js';
import { errnoCode } from '../io/fs-error.js';
import { strictUtf8 } from '../text/strict-utf8.js';

/**
 * engine.md T1: `{"version":1,"projects":{"<canonical root>":{"trusted_at":"<ISO-8601 UTC>"}}}`.
 * Unknown keys (another tool's) are kept when the store is rewritten.
 */
const trustStoreSchema = z.looseObject({
  version: z.literal(1),
  projects: z.record(z.string(), z.looseObject({ trusted_at: z.string() })),
});
export type TrustStore = z.infer<typeof trustStoreSchema>;

export type StoreRead =
  | { status: 'missing' }
  | { status: 'valid'; store: TrustStore }
  | { status: 'invalid'; reason: string };

/** The trust store of the user whose home directory is `home` (T1). */
export function trustStorePath(home: string): string {
  return join(home, '.deepagents', '.state', 'hooks_trust.json');
}

/** A trust store larger than this is refused unread. */
const TRUST_STORE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Parses the store once (STYLE rule 4); never throws. Only a regular file (after its symlinks) of
 * at most TRUST_STORE_MAX_BYTES is read: a FIFO or a device there is invalid, never waited on.
 */
export async function readStore(file: string): Promise<StoreRead> {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file, { maxBytes: TRUST_STORE_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { status: 'missing' };
    return { status: 'invalid', reason: `it cannot be read: ${readFailureReason(error)}` };
  }
  const text = strictUtf8(bytes, 'drop');
  if (text === null) return { status: 'invalid', reason: 'it is not valid UTF-8' };
  const json = parseJson(text, file);
  if (!json.ok)
    return {
      status: 'invalid',
      reason: `invalid JSON at ${json.line}:${json.column}: ${json.message}`,
    };
  const version = (json.value as { version?: unknown } | null)?.version;
  if (typeof json.value === 'object' && json.value !== null && version !== 1) {
    const found = version === undefined ? 'no version' : `version ${JSON.stringify(version)}`;
    return { status: 'invalid', reason: `${found}, expected version 1` };
  }
  const parsed = trustStoreSchema.safeParse(json.value);
  if (parsed.success) return { status: 'valid', store: parsed.data };
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0 ? 'the document' : issue.path.join('.');
  return { status: 'invalid', reason: `${where}: ${issue?.message ?? 'invalid'}` };
}
