import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HookpmError } from '../errors.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { writeFileDurable } from '../io/durable-write.js';
import { toUserFileError } from '../io/fs-error.js';
import { withLock } from '../io/lock.js';
import { canonicalProjectRoot, missingWorkspaceKey } from './canonical-root.js';
import { readStore, trustStorePath, type StoreRead, type TrustStore } from './trust-store-file.js';

export { trustStorePath } from './trust-store-file.js';

/** Whether the workspace holding `dir` is trusted by the store, as T3 reads it. */
export interface TrustCheck {
  /** The canonical project root (T2): the store's key. */
  root: string;
  trusted: boolean;
  trustedAt: string | null;
  storeFile: string;
  /** Info when the store is not made yet; a warning when unreadable, invalid or of another version (T3). */
  diagnostics: Diagnostic[];
}

/** The result of `grantTrust` / `revokeTrust`. */
export interface TrustChange {
  root: string;
  /** Whether the workspace is trusted now. */
  trusted: boolean;
  /** Whether the store was rewritten (false when it already said so). */
  changed: boolean;
  trustedAt: string | null;
  storeFile: string;
}

/** T2, T3: looks `dir`'s canonical root up; any problem with the store means untrusted, with a diagnostic. */
export async function readTrust(home: string, dir: string): Promise<TrustCheck> {
  const root = await canonicalProjectRoot(dir);
  const storeFile = trustStorePath(home);
  const read = await readStore(storeFile);
  if (read.status !== 'valid') {
    const warning = unusableStore(storeFile, root, read);
    return { root, trusted: false, trustedAt: null, storeFile, diagnostics: [warning] };
  }
  const entry = Object.hasOwn(read.store.projects, root) ? read.store.projects[root] : undefined;
  return {
    root,
    trusted: entry !== undefined,
    trustedAt: entry?.trusted_at ?? null,
    storeFile,
    diagnostics: [],
  };
}

/** T3: why a store cannot be used (info for one not made yet, a warning otherwise). */
function unusableStore(
  storeFile: string,
  root: string,
  read: Exclude<StoreRead, { status: 'valid' }>,
): Diagnostic {
  if (read.status === 'missing') {
    // Message style (docs/reference/commands.md#terminals-and-pipes): a new home has no store until
    // a first Always allow; nothing to fix.
    const message = `no workspace is stored as trusted yet (${storeFile} is made at the first Always allow)`;
    return diagnostic('trust_store_missing', 'info', message, { path: storeFile });
  }
  const message = `the trust store ${storeFile} is not valid (${read.reason}); it is ignored, so ${root} is not stored as trusted (repair or delete the file)`;
  return diagnostic('trust_store_invalid', 'warning', message, { path: storeFile });
}

/**
 * T1, T2: stores trust for `dir`'s canonical root (an existing entry keeps its `trusted_at`).
 * Errors: E_TRUST_STORE when the store exists but is not valid (T3: it is never overwritten),
 * E_LOCKED, E_STORE_READONLY, E_NOSPC, E_IO.
 */
export async function grantTrust(
  home: string,
  dir: string,
  options: { clock?: () => Date } = {},
): Promise<TrustChange> {
  const root = await canonicalProjectRoot(dir);
  const now = (options.clock ?? (() => new Date()))();
  return updateStore(home, (store) => {
    const existing = Object.hasOwn(store.projects, root) ? store.projects[root] : undefined;
    if (existing !== undefined)
      return { root, trusted: true, changed: false, trustedAt: existing.trusted_at };
    store.projects[root] = { trusted_at: now.toISOString() };
    return { root, trusted: true, changed: true, trustedAt: now.toISOString() };
  });
}

/**
 * Removes `dir`'s canonical root from the store; a `dir` that no longer exists (a project moved or
 * deleted) removes the entry stored under its path, so a directory made there later (another
 * clone) is not trusted. Errors as for grantTrust.
 */
export async function revokeTrust(home: string, dir: string): Promise<TrustChange> {
  const root = (await missingWorkspaceKey(dir)) ?? (await canonicalProjectRoot(dir));
  return updateStore(home, (store) => {
    if (!Object.hasOwn(store.projects, root))
      return { root, trusted: false, changed: false, trustedAt: null };
    delete store.projects[root];
    return { root, trusted: false, changed: true, trustedAt: null };
  });
}

/**
 * Read-modify-write under the store's cross-process lock; writes only when `edit` changed
 * something. The trust store is in the user's home, not in hookpm's store: a failure to make its
 * directory, its lock or the file is E_IO naming it (toUserFileError), never E_STORE_READONLY,
 * whose fix (another HOOKPM_HOME) does not move it; E_LOCKED names it.
 */
async function updateStore(
  home: string,
  edit: (store: TrustStore) => Omit<TrustChange, 'storeFile'>,
): Promise<TrustChange> {
  const storeFile = trustStorePath(home);
  await ensureStateDir(join(home, '.deepagents', '.state'));
  const lock = { owner: 'user', guards: `the trust store ${storeFile}` } as const;
  return withLock(
    `${storeFile}.lock`,
    async () => {
      const read = await readStore(storeFile);
      if (read.status === 'invalid') throw invalidStoreError(storeFile, read.reason);
      const store: TrustStore = read.status === 'valid' ? read.store : { version: 1, projects: {} };
      const change = edit(store);
      if (change.changed) {
        const text = `${JSON.stringify(store, null, 2)}\n`;
        await writeFileDurable(storeFile, text, { mode: 0o600, owner: 'user' });
      }
      return { ...change, storeFile };
    },
    lock,
  );
}

/** T1: the store's directory is private (0700), whoever created it. */
async function ensureStateDir(stateDir: string): Promise<void> {
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    await chmod(stateDir, 0o700);
  } catch (error) {
    throw toUserFileError(error, stateDir, 'create');
  }
}

function invalidStoreError(file: string, reason: string): HookpmError {
  return new HookpmError(
    'E_TRUST_STORE',
    `the trust store ${file} is not valid (${reason}); it was left unchanged`,
    {
      file,
      hint: `Repair ${file} (expected {"version":1,"projects":{...}}), or delete it to forget every trusted workspace, then run the command again.`,
    },
  );
}
