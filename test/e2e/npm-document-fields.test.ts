/**
 * What an npm package document says about the picked version, through the built CLI: a deprecated
 * version installs with a warning (registry.md V2, as npm warns); a `dist.integrity` of megabytes
 * is never recorded (security.md: bounded), only the verified sha512. The registry is a stand-in
 * (test/helpers/fake-npm-registry.ts) on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrityOf } from '../../src/registry/integrity.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from '../helpers/fake-npm-registry.js';

const ws = useBinWorkspace('npm-document-fields');
const FILES = {
  'package.json': JSON.stringify({ name: 'hookpm-plugin-old', version: '1.0.0' }),
  '.claude-plugin/plugin.json': JSON.stringify({ name: 'old', version: '1.0.0' }),
  'hooks/hooks.json': JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node -e 0' }] }] },
  }),
};
const LONG_FILES = {
  ...FILES,
  'package.json': JSON.stringify({ name: 'hookpm-plugin-long-sri', version: '1.0.0' }),
  '.claude-plugin/plugin.json': JSON.stringify({ name: 'long-sri', version: '1.0.0' }),
};
/** A sha1 entry of 2 MB after the real sha512: npm accepts any extra entry. */
const LONG_SHA1 = ` sha1-${'A'.repeat(2_000_000)}`;
let npm: FakeNpmRegistry;

beforeAll(async () => {
  npm = await startFakeNpmRegistry({
    'hookpm-plugin-old': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: FILES, deprecated: 'use hookpm-plugin-new' } },
    },
    'hookpm-plugin-long-sri': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: LONG_FILES, integrity: (real) => `${real}${LONG_SHA1}` } },
    },
  });
});
afterAll(() => npm?.close());

describe('registry.md V2: a deprecated npm version', () => {
  it('V2: install npm:<pkg> of a deprecated version installs it with a warning naming the reason', async () => {
    const env = ws.env({ HOOKPM_NPM_REGISTRY: npm.url });
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-old', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toContain(
      'warning: old@npm 1.0.0 is deprecated: use hookpm-plugin-new',
    );
  });

  it('V2: install --dry-run says so too', async () => {
    const env = ws.env({ HOOKPM_NPM_REGISTRY: npm.url });
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-old', '--dry-run', '--json'], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).notes).toContain(
      'warning: old@npm 1.0.0 is deprecated: use hookpm-plugin-new',
    );
  });
});

describe('security.md (bounded): a dist.integrity of megabytes', () => {
  it('V3: the state records the sha512 of the verified bytes, not the published text', async () => {
    const env = ws.env({ HOOKPM_NPM_REGISTRY: npm.url });
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-long-sri', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    const text = await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8');
    expect(text.length).toBeLessThan(10_000);
    const served = await fetch(
      `${npm.url}hookpm-plugin-long-sri/-/hookpm-plugin-long-sri-1.0.0.tgz`,
    );
    const digest = integrityOf(Buffer.from(await served.arrayBuffer()));
    const state = JSON.parse(text) as {
      plugins: Record<string, { integrity: string }>;
      knownIntegrity: Record<string, Record<string, string>>;
    };
    expect(state.plugins['long-sri@npm']?.integrity).toBe(digest);
    expect(state.knownIntegrity['long-sri@npm']).toEqual({ '1.0.0': digest });
  });
});
