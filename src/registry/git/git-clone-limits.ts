import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How much one clone may bring onto the disk (docs/design/decisions.md#plugins-and-marketplaces):
 * a repository is a marketplace's or a plugin's, and a hostile one could otherwise fill the disk
 * within the clone's deadline, by its download (`maxFetchBytes`, what `.git` holds) or by a
 * checkout of a few blobs compressed a thousandfold and named a thousand times (`maxBytes` and
 * `maxEntries`, the files of the commit checked out, counted before any is written).
 */
export interface CloneLimits {
  maxFetchBytes: number;
  maxBytes: number;
  maxEntries: number;
}

export const CLONE_LIMITS: CloneLimits = {
  maxFetchBytes: 1024 * 1024 * 1024,
  maxBytes: 1024 * 1024 * 1024,
  maxEntries: 200_000,
};

/**
 * The bytes of the regular files under `dir` now (links not followed; a file or directory that goes
 * while it is walked counts as nothing), for a poll while git fetches into it.
 */
export function bytesUnder(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const info = lstatSync(path);
      if (info.isDirectory()) total += bytesUnder(path);
      else if (info.isFile()) total += info.size;
    } catch {
      // Gone meanwhile (git renames its temporary packs).
    }
  }
  return total;
}

/** What a commit's tree holds, as `git ls-tree -r -l -z` lists it: files and blob bytes. */
export interface TreeCount {
  entries: number;
  bytes: number;
}

/**
 * A reader of `git ls-tree -r -l -z` output in pieces of any size: each record is `<mode> SP
 * <type> SP <object> SP+ <size> TAB <path> NUL`; every record is an entry, and a blob's size is
 * added. `over` says which limit the count passed, or null. A record is never held past its NUL,
 * and of one still without it only the first MAX_RECORD characters are kept.
 */
export function treeCounter(limits: Pick<CloneLimits, 'maxBytes' | 'maxEntries'>): {
  feed(chunk: Buffer): void;
  count: TreeCount;
  over(): string | null;
} {
  const count: TreeCount = { entries: 0, bytes: 0 };
  let carry = '';
  const record = (text: string): void => {
    count.entries += 1;
    const head = text.slice(0, text.indexOf('\t'));
    const [, type, , size] = head.split(/ +/);
    if (type === 'blob' && size !== undefined && /^\d+$/.test(size)) count.bytes += Number(size);
  };
  return {
    feed(chunk) {
      const text = carry + chunk.toString('latin1');
      const records = text.split('\0');
      // A record's head (its type and size) is at its start: that is what a long one keeps.
      carry = (records.pop() ?? '').slice(0, MAX_RECORD);
      for (const one of records) record(one);
    },
    count,
    over() {
      if (count.entries > limits.maxEntries)
        return `its tree holds more than ${limits.maxEntries} files`;
      if (count.bytes > limits.maxBytes) return `its files hold more than ${limits.maxBytes} bytes`;
      return null;
    },
  };
}

/** A record's longest useful length: its head and a path of PATH_MAX. */
const MAX_RECORD = 4096 + 128;
