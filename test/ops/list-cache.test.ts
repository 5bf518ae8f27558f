import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepListFile, type ListKey } from '../../src/ops/plugins/list-cache.js';
import { keptDocument } from '../helpers/list-file.js';
import type { StorePaths } from '../../src/store/store-paths.js';

const DOCUMENT = '{\n  "schemaVersion": 1,\n  "plugins": []\n}\n';
const KEY: ListKey = {
  identity: '0.1.0 1:2:3:4:5 absent',
  state: '1:2:3:4:5',
  settled: true,
  rows: '0.1.0 absent',
  rowsSettled: true,
};

/** Keeps DOCUMENT under `key`. */
function keep(key: ListKey): void {
  keepListFile(paths, key, key.identity, [Buffer.from(DOCUMENT)], null, null);
}

let root: string;
let paths: StorePaths;
let kept: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookpm-list-cache-'));
  paths = { config: join(root, 'config'), data: join(root, 'data'), cache: join(root, 'cache') };
  kept = join(paths.cache, 'list', 'user.json');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the kept list document (registry.md S33)', () => {
  it('S33: a document kept under a key is read back under that key, and under no other', () => {
    keep(KEY);
    expect(keptDocument(paths, KEY)).toBe(DOCUMENT);
    expect(keptDocument(paths, { ...KEY, identity: '0.1.0 1:2:3:4:6 absent' })).toBeNull();
    // A key that only begins like the kept one is another key.
    expect(keptDocument(paths, { ...KEY, identity: '0.1.0 1:2:3:4:5' })).toBeNull();
  });

  it('S33: a cut-off document, a symlink or a FIFO in its place is no document, read without waiting', () => {
    keep(KEY);
    const whole = readFileSync(kept, 'utf8');
    writeFileSync(kept, whole.slice(0, -3));
    expect(keptDocument(paths, KEY)).toBeNull();
    // A link to a whole document elsewhere is not followed.
    const elsewhere = join(root, 'elsewhere.json');
    writeFileSync(elsewhere, whole);
    rmSync(kept);
    symlinkSync(elsewhere, kept);
    expect(keptDocument(paths, KEY)).toBeNull();
    rmSync(kept);
    execFileSync('mkfifo', [kept]);
    expect(keptDocument(paths, KEY)).toBeNull();
  });
});
