import { mkdirSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HookpmError } from '../../errors.js';
import { sha256Hex } from '../../json/canonical-json.js';
import { writeFileDurable } from '../../io/durable-write.js';
import { errnoCode, toStoreError } from '../../io/fs-error.js';
import { withLock } from '../../io/lock.js';
import type { LockOptions } from '../../io/lock.js';
import { lockFile, stateFile } from '../paths.js';
import type { StorePaths } from '../store-paths.js';
import { STATE_VERSION, emptyState, stateSchema } from './state-schema.js';
import type { State } from './state-schema.js';
import { findKeyProblem } from './state-keys.js';
import { readStateBytes } from './read-state-bytes.js';
import { quickStateOf, readQuickState } from './quick-state.js';
import { writtenPart } from './lazy-state.js';
import { stateLinesParts } from './state-lines.js';
import { sealState } from './state-seal.js';

/**
 * The last state document only the schema accepted and the state it parsed to: a command reads
 * the state before it takes the lock and again under it (install, update), and unchanged bytes
 * need no second schema parse.
 */
let lastRead: { file: string; bytes: Buffer; state: State } | undefined;

/**
 * Reads the state document (D2). A store that has none yet has the empty state. A document that
 * cannot be parsed, fails the schema or has a newer version is E_STATE_CORRUPT (D6): it is never
 * reset or overwritten, and a copy `state.json.corrupt-<time>` is kept (one per distinct content).
 * `read`: the file's bytes, read already by the caller.
 */
export async function readState(paths: StorePaths, read?: Buffer): Promise<State> {
  const file = stateFile(paths);
  let bytes: Buffer;
  try {
    bytes = read ?? readStateBytes(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return emptyState();
    throw toStoreError(error, file, 'read');
  }
  // The common case: the structural check (quick-state.ts) passes; parsing the bytes again on a
  // command's second read costs less than a structuredClone of a kept state would. A state only
  // the schema accepted is kept (lastRead) and cloned.
  const quick = readQuickState(bytes.toString('utf8'));
  if (quick !== null && findKeyProblem(quick) === null) return quick;
  if (lastRead?.file === file && lastRead.bytes.equals(bytes))
    return structuredClone(lastRead.state);
  const problem = findProblem(bytes);
  if (problem.state !== undefined) {
    lastRead = { file, bytes, state: structuredClone(problem.state) };
    return problem.state;
  }
  const copy = await keepCorruptCopy(file, bytes);
  const kept = copy === null ? 'no copy could be written next to it' : `a copy is kept at ${copy}`;
  throw new HookpmError('E_STATE_CORRUPT', `the state file ${file} ${problem.reason}`, {
    file,
    copy,
    hint: `Run \`hookpm doctor\` to see how to recover. The file was left as it is; ${kept}.`,
  });
}

/** Writes the state document durably (D2); the caller holds the store lock. A state that breaks the schema is a bug (thrown as an assertion). */
export async function writeState(paths: StorePaths, state: State): Promise<void> {
  await writeStateBytes(paths, serializeState(state));
}

/**
 * The bytes of the state document for `state`, as writeState writes them. A state that breaks the
 * schema is a bug (thrown as an assertion).
 */
export function serializeState(state: State): Buffer {
  const parts = serializeStateParts(state);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** serializeState's bytes as consecutive parts (state-lines.ts), unjoined. */
export function serializeStateParts(state: State): Buffer[] {
  // The structural check accepts exactly what stateSchema accepts (quick-state.ts), so the
  // schema runs only when it fails, to write what the schema makes of the draft or say what is
  // wrong: at 5,000 plugins the schema costs a tenth of a second per write (engine.md X10). Of a
  // state read entry by entry only what was read or set is checked: the rest is written back as
  // the bytes it was read from (S42).
  const part = writtenPart(state);
  const badKey = findKeyProblem(part);
  if (badKey === null && quickStateOf(part) !== null) return stateLinesParts(state);
  // What the schema accepts and the structural check does not (a field set to undefined) is
  // written as JSON writes it (without the field).
  const checked = stateSchema.safeParse(part);
  if (!checked.success || badKey !== null) {
    throw new Error(
      `Assertion failed: the state to write breaks its schema: ${badKey ?? checked.error?.message}`,
    );
  }
  return stateLinesParts(state);
}

/** Writes `bytes` (serializeState's, or its parts) as the state document durably (D2); the caller holds the store lock. */
export async function writeStateBytes(
  paths: StorePaths,
  bytes: Buffer | readonly Buffer[],
): Promise<void> {
  const file = stateFile(paths);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw toStoreError(error, file, 'write');
  }
  await writeFileDurable(file, bytes, { mode: 0o600 });
  sealState(paths);
}

/** Runs `fn` while holding the store lock (D3). */
export function withStoreLock<T>(
  paths: StorePaths,
  fn: () => Promise<T>,
  opts?: LockOptions,
): Promise<T> {
  return withLock(lockFile(paths), fn, opts);
}

/**
 * Under the store lock: reads the state, lets `fn` change the draft it is given, and writes the
 * draft (only if it changed) when `fn` resolves. When `fn` throws nothing is written. Returns what
 * `fn` returned.
 */
export function updateState<T>(
  paths: StorePaths,
  fn: (draft: State) => T | Promise<T>,
  opts?: LockOptions,
): Promise<T> {
  return withStoreLock(
    paths,
    async () => {
      const before = await readState(paths);
      const draft = structuredClone(before);
      const result = await fn(draft);
      if (JSON.stringify(draft) !== JSON.stringify(before)) await writeState(paths, draft);
      return result;
    },
    opts,
  );
}

/**
 * What findProblem found: the parsed state, or why the bytes are unusable (`reason`, the words of
 * E_STATE_CORRUPT) with the document as far as it parsed (`json`: undefined when not JSON), the
 * newer state version that wrote it (`futureVersion`, else null) and the first field this hookpm
 * does not know (`unknownField`, its path, as a newer hookpm of the same state version writes
 * one; else null), for doctor's recovery steps.
 */
export type StateProblem =
  | { state: State; reason?: undefined }
  | {
      state?: undefined;
      reason: string;
      json: unknown;
      futureVersion: number | null;
      unknownField: string | null;
    };

/**
 * Judges state bytes without touching the disk: the parsed state, or why it is unusable (the reason
 * readState puts in E_STATE_CORRUPT). `hookpm doctor` uses it so that looking never writes a copy.
 */
export function findProblem(bytes: Buffer): StateProblem {
  const text = bytes.toString('utf8');
  // The common case without the schema: the structural check accepts exactly what stateSchema
  // accepts and returns what it would (read-state-fast.ts); the schema judges everything else.
  const quick = readQuickState(text);
  if (quick !== null && findKeyProblem(quick) === null) return { state: quick };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      reason: `is not valid JSON (${bytes.length} bytes; ${detail})`,
      json: undefined,
      futureVersion: null,
      unknownField: null,
    };
  }
  const version =
    typeof json === 'object' && json !== null ? (json as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > STATE_VERSION) {
    return {
      reason: `has version ${version}, newer than the version this hookpm reads (${STATE_VERSION})`,
      json,
      futureVersion: version,
      unknownField: null,
    };
  }
  const badKey = findKeyProblem(json);
  if (badKey !== null)
    return {
      reason: `does not match the state schema: ${badKey}`,
      json,
      futureVersion: null,
      unknownField: null,
    };
  const parsed = stateSchema.safeParse(json);
  if (parsed.success) return { state: parsed.data };
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0
      ? 'the document'
      : issue.path.map(String).join('.');
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  return {
    reason: `does not match the state schema: ${where}: ${issue?.message ?? 'invalid'}`,
    json,
    futureVersion: null,
    unknownField: unknown === undefined ? null : [...(issue?.path ?? []), unknown].join('.'),
  };
}

/**
 * Copies the bad bytes (as read, not as the file may be now) next to the state file, once per
 * distinct content; returns the copy's path, or null when it cannot be written (a read-only store).
 */
async function keepCorruptCopy(file: string, bytes: Buffer): Promise<string | null> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.corrupt-`;
  const digest = sha256Hex(bytes);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const existing = await readFile(join(dir, name)).catch(() => undefined);
    if (existing !== undefined && sha256Hex(existing) === digest) return join(dir, name);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const copy = join(dir, `${prefix}${stamp}`);
  try {
    await writeFile(copy, bytes, { flag: 'wx', mode: 0o600 });
    return copy;
  } catch {
    return null;
  }
}
