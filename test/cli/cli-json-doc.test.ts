/**
 * issue 18 item 8: every `--json` document starts with `"schemaVersion": 1`, is an object, and
 * docs/cli-json.md names every field it prints (top level, and the keys of a top-level list's
 * items), so a field added without documenting it fails here. Runs the built CLI against the
 * built-in `examples` registry in a temporary home.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUARD = join(ROOT, 'registry-fixtures', 'plugins', 'guard');

let home: TempHome;
let doc: string;

beforeAll(async () => {
  ensureBuilt();
  home = await makeTempHome('hookpm-cli-json-');
  doc = await readFile(join(ROOT, 'docs', 'cli-json.md'), 'utf8');
}, 120_000);

afterAll(async () => {
  await home?.cleanup();
});

/** The words inside backticks of the doc's `## <title>` section. */
function documentedWords(title: string): Set<string> {
  const section = doc.split(/^## /m).find((s) => s.split('\n', 1)[0]?.trim() === title);
  if (section === undefined) throw new Error(`docs/cli-json.md has no section "## ${title}"`);
  const words = new Set<string>();
  for (const [, code] of section.matchAll(/`([^`]+)`/g))
    for (const word of (code ?? '').split(/[^A-Za-z0-9_]+/)) if (word !== '') words.add(word);
  return words;
}

async function json(args: string[], stdin?: string): Promise<Record<string, unknown>> {
  const run = await runBin([...args, '--json'], {
    env: home.env,
    cwd: home.dir,
    ...(stdin === undefined ? {} : { stdin }),
  });
  const value = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(run.code, run.stdout).toBe('error' in value ? 1 : 0);
  expect(Array.isArray(value), run.stdout).toBe(false);
  expect(Object.keys(value)[0], run.stdout).toBe('schemaVersion');
  expect(value['schemaVersion']).toBe(1);
  return value;
}

function expectDocumented(section: string, value: Record<string, unknown>): void {
  const words = documentedWords(section);
  const keys = new Set(Object.keys(value));
  for (const item of Object.values(value)) {
    if (!Array.isArray(item)) continue;
    for (const entry of item)
      if (typeof entry === 'object' && entry !== null)
        for (const key of Object.keys(entry)) keys.add(key);
  }
  const missing = [...keys].filter((key) => !words.has(key));
  expect(missing, `fields missing from docs/cli-json.md "## ${section}"`).toEqual([]);
}

// In order: later commands see what earlier ones installed.
const CASES: Array<{ section: string; args: string[]; stdin?: string }> = [
  { section: 'list', args: ['list'] },
  { section: 'search', args: ['search', 'guard'] },
  { section: 'info', args: ['info', 'guard@examples'] },
  { section: 'review', args: ['review', 'guard@examples'] },
  { section: 'install', args: ['install', 'audit-log@examples', '--dry-run'] },
  { section: 'install', args: ['install', 'guard@examples@1.0.0', '--yes'] },
  { section: 'list', args: ['list'] },
  { section: 'info', args: ['info', 'guard@examples'] },
  { section: 'update', args: ['update', '--yes'] },
  { section: 'hooks', args: ['hooks'] },
  { section: 'run', args: ['run', 'Stop', '--payload', '-'], stdin: '{}' },
  { section: 'validate', args: ['validate', GUARD] },
  { section: 'doctor', args: ['doctor'] },
  { section: 'enable, disable', args: ['disable', 'guard@examples'] },
  { section: 'enable, disable', args: ['enable', 'guard@examples', '--yes'] },
  { section: 'link, unlink', args: ['link'] },
  { section: 'link, unlink', args: ['link', 'claude'] },
  { section: 'link, unlink', args: ['link'] },
  { section: 'link, unlink', args: ['unlink', 'claude'] },
  { section: 'trust, untrust', args: ['trust', '.'] },
  { section: 'trust, untrust', args: ['untrust', '.'] },
  { section: 'registry', args: ['registry', 'list'] },
  { section: 'registry', args: ['registry', 'update'] },
  {
    section: 'registry',
    args: ['registry', 'build', join(ROOT, 'registry-fixtures', 'plugins'), '--out', 'built'],
  },
  { section: 'registry', args: ['registry', 'add', 'mine', join(ROOT, 'registry-fixtures')] },
  { section: 'registry', args: ['registry', 'remove', 'mine'] },
  { section: 'pack', args: ['pack', GUARD, '--out', 'packed'] },
  { section: 'uninstall', args: ['uninstall', 'guard@examples', '--dry-run'] },
  { section: 'error', args: ['info', 'no-such-plugin@examples'] },
];

describe('docs/cli-json.md and schemaVersion (issue 18 item 8)', () => {
  it('every --json document is an object whose first key is schemaVersion 1, with every field documented', async () => {
    for (const { section, args, stdin } of CASES) {
      const value = await json(args, stdin);
      expectDocumented(section, value);
    }
    const hooks = await json(['hooks']);
    const [first] = hooks['handlers'] as Array<{ key: string }>;
    for (const verb of ['disable', 'enable'])
      expectDocumented(
        'enable, disable',
        await json([verb, 'guard@examples', '--hook', first?.key ?? '']),
      );
  }, 180_000);

  it('list and info report installedAt and updatedAt: an update keeps installedAt and moves updatedAt', async () => {
    const list = await json(['list']);
    const [guard] = list['plugins'] as Array<Record<string, string>>;
    expect(guard?.['version']).toBe('1.1.0');
    const installedAt = Date.parse(guard?.['installedAt'] ?? '');
    const updatedAt = Date.parse(guard?.['updatedAt'] ?? '');
    expect(Number.isNaN(installedAt)).toBe(false);
    expect(updatedAt).toBeGreaterThan(installedAt);
    const info = await json(['info', 'guard@examples']);
    const installed = info['installed'] as Record<string, string>;
    expect(installed['installedAt']).toBe(guard?.['installedAt']);
    expect(installed['updatedAt']).toBe(guard?.['updatedAt']);
    expect((await stat(join(home.dir, 'packed'))).isDirectory()).toBe(true);
  });
});
