import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/ops/validate/validate.js';
import { gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';

const SHA512 = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
const HOOKS = JSON.stringify({
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
});

let tmp: string;

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-validate-kinds-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function index(integrity: string): string {
  const version = {
    tarball: 'tarballs/guard-1.0.0.tgz',
    integrity,
    events: ['PreToolUse', 'Nope'],
  };
  return JSON.stringify({
    formatVersion: 1,
    plugins: { guard: { distTags: { latest: '1.0.0' }, versions: { '1.0.0': version } } },
  });
}

describe('hookpm validate <registry dir> (cli.md 2, kind "registry")', () => {
  it('I1: a valid index.json is ok, with its plugins and engine events', async () => {
    const dir = join(tmp, 'good-registry');
    await writeFiles(dir, { 'index.json': index(SHA512) });
    const report = await validate({ path: dir, strict: false });
    expect(report).toMatchObject({
      ok: true,
      kind: 'registry',
      plugins: ['guard'],
      events: ['PreToolUse'],
    });
  });

  it('I1: a sha1-only integrity is an error naming the field; invalid JSON names its position', async () => {
    const dir = join(tmp, 'bad-registry');
    await writeFiles(dir, { 'index.json': index('sha1-abc') });
    const report = await validate({ path: join(dir, 'index.json'), strict: false });
    expect(report.ok).toBe(false);
    expect(report.diagnostics[0]?.path).toBe('index.json:plugins.guard.versions.1.0.0.integrity');
    await writeFile(join(dir, 'index.json'), '{"formatVersion": 1,,}');
    const broken = await validate({ path: dir, strict: false });
    expect(broken.diagnostics[0]?.message).toMatch(/^index\.json:1:\d+: invalid JSON/);
  });
});

describe('hookpm validate <marketplace> (cli.md 2, kind "marketplace")', () => {
  it('validates each ./ plugin present, naming its files under the source path', async () => {
    const dir = join(tmp, 'market');
    const catalog = marketplaceCatalog('m', [
      { name: 'good', source: './good' },
      { name: 'broken', source: './broken' },
      { name: 'absent', source: './absent' },
    ]);
    await writeFiles(dir, {
      '.claude-plugin/marketplace.json': JSON.stringify(catalog),
      'good/hooks/hooks.json': HOOKS,
      'broken/plugin.json': '{"name": "broken", "hooks": 5}',
    });
    const report = await validate({ path: dir, strict: false });
    expect(report.kind).toBe('marketplace');
    expect(report.ok).toBe(false);
    expect(report.plugins).toEqual(['good', 'absent']);
    expect(report.events).toEqual(['Stop']);
    expect(report.diagnostics.find((d) => d.severity === 'error')?.path).toBe(
      'broken/plugin.json:hooks',
    );
    const missing = report.diagnostics.find((d) => d.code === 'marketplace_source_missing');
    expect(missing).toMatchObject({
      severity: 'warning',
      path: '.claude-plugin/marketplace.json:plugins[2].source',
    });
    expect(
      (await validate({ path: dir, strict: true })).diagnostics.every(
        (d) => d.severity === 'error',
      ),
    ).toBe(true);
  });

  it('inside a git work tree, a ./ source may climb to the repository root, not above it', async () => {
    const repo = join(tmp, 'repo');
    await mkdir(join(tmp, 'home'), { recursive: true });
    const catalog = marketplaceCatalog('dev', [
      { name: 'root', source: './..' },
      { name: 'above', source: './../..' },
    ]);
    await makeRepo(repo, gitTestEnv(join(tmp, 'home')), {
      '.dev-marketplace/.claude-plugin/marketplace.json': JSON.stringify(catalog),
      'hooks/hooks.json': HOOKS,
    });
    const report = await validate({ path: join(repo, '.dev-marketplace'), strict: false });
    expect(report.plugins).toEqual(['root']);
    expect(report.events).toEqual(['Stop']);
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain(
      'plugins[1] ("above"): source "../.." resolves outside the repository',
    );
  });
});
