/**
 * What an npm package document says about the picked version, through the built CLI: a deprecated
 * version installs with a warning (registry.md V2, as npm warns). The registry is a stand-in
 * (test/helpers/fake-npm-registry.ts) on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let npm: FakeNpmRegistry;

beforeAll(async () => {
  npm = await startFakeNpmRegistry({
    'hookpm-plugin-old': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: FILES, deprecated: 'use hookpm-plugin-new' } },
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
