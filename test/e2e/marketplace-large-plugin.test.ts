/**
 * The tree limits (registry.md A2, section 1 kind marketplace; security.md's invariant): a
 * marketplace plugin of more than 2,000 files is in the catalog and installs, as `hookpm install
 * ./dir` of the same tree does (the 2,000-entry limit is the one of an uploaded tarball); an entry
 * over a tree limit is reported by `registry add`, `validate` and `install` alike, with one
 * message, and the store stays byte-identical. A real generated marketplace directory, the built
 * CLI.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { writeFiles } from '../helpers/git-repo.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';

/** Over the 2,000 entries of an uploaded tarball, which a tree need not keep to. */
const FILES = 2_050;
const HUGE_BYTES = 21 * 1000 * 1000;
/** What every command says of the entry over the per-file limit (20 MiB, registry.md A2). */
const OVER =
  'the plugin directory ./plugins/huge is over a size limit: blob.bin is 21000000 bytes (limit 20971520 a file)';

let root: string;
let market: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  root = await mkdtemp(join(tmpdir(), 'hookpm-mkt-large-'));
  market = join(root, 'market');
  await writeFiles(market, {
    '.claude-plugin/marketplace.json': JSON.stringify(
      marketplaceCatalog('large', [
        { name: 'big', source: './plugins/big' },
        { name: 'huge', source: './plugins/huge' },
      ]),
    ),
    'plugins/big/.claude-plugin/plugin.json': JSON.stringify({ name: 'big', version: '1.0.0' }),
    'plugins/big/hooks/hooks.json': JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo big' }] }] },
    }),
    'plugins/huge/.claude-plugin/plugin.json': JSON.stringify({ name: 'huge', version: '1.0.0' }),
  });
  // A vendored dependency tree, as real plugins ship: 41 folders of 50 files.
  for (let d = 0; d < FILES / 50; d += 1) {
    const dir = join(market, 'plugins/big/node_modules', `dep-${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: 50 }, (_, f) => writeFile(join(dir, `f${f}.js`), `// ${d}/${f}\n`)),
    );
  }
  await writeFile(join(market, 'plugins/huge/blob.bin'), Buffer.alloc(HUGE_BYTES));
  env = { ...(process.env as Record<string, string>), HOME: root, HOOKPM_HOME: join(root, 'home') };
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const run = (args: string[]) => runBin(args, { env, cwd: root });

describe('marketplace plugins of any size within the limits', () => {
  it('`registry add` lists the 2,050-file plugin and warns of the one over a limit', async () => {
    const added = await run(['registry', 'add', 'large', market]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('(marketplace, 1 plugin(s))');
    expect(added.stderr).toContain(`hookpm: warning: registry large: ${market}: `);
    expect(added.stderr).toContain(`plugins[1] (huge): ${OVER}`);
    const search = await run(['search', 'big', '--json']);
    expect(search.stdout).toContain('"big"');
  }, 120_000);

  it('`validate` says the same of the entry over a limit, and nothing of the large one', async () => {
    const checked = await run(['validate', market]);
    expect(checked.code).toBe(1);
    const out = checked.stdout + checked.stderr;
    expect(out).toContain(`plugins[1] ("huge"): ${OVER}`);
    expect(out).toContain('1 error(s)');
    expect(out).not.toContain('./plugins/big is over');
  }, 120_000);

  it('`install` takes the 2,050-file plugin whole, as `install ./dir` does', async () => {
    const installed = await run(['install', 'big@large', '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('installed big@large 1.0.0 (enabled); events: SessionStart');
    const paths = resolveStorePaths({ HOOKPM_HOME: env['HOOKPM_HOME'] });
    const versions = join(paths.data, 'plugins');
    const found = await readdir(versions, { recursive: true });
    expect(found.filter((f) => f.endsWith('.js')).length).toBe(FILES);
  }, 120_000);

  it('`install` of the entry over a limit is E_ARCHIVE_TOO_LARGE with the same message; the store is byte-identical', async () => {
    const paths = resolveStorePaths({ HOOKPM_HOME: env['HOOKPM_HOME'] });
    const before = await hashStore(paths);
    const refused = await run(['install', 'huge@large', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error[E_ARCHIVE_TOO_LARGE]: huge@large: ');
    expect(refused.stderr).toContain(`plugins[1] (huge): ${OVER}`);
    expect(refused.stderr).toContain('20 MiB a file');
    expect(await hashStore(paths)).toEqual(before);
  }, 120_000);
});
