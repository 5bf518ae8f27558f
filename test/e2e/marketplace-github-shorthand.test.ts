/**
 * registry.md, registry kinds: `hookpm registry add <name> owner/repo`, Claude Code's shorthand for
 * a marketplace on GitHub, adds `https://github.com/owner/repo.git` when no file or directory of
 * that path exists; one that exists is read in place. github.com cannot be reached from tests:
 * the user's git `url.<base>.insteadOf` leads it to a repository on this machine, as git would.
 * The built CLI.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { git, gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';

const ws = useBinWorkspace('github-shorthand');

const files = (name: string): Record<string, string> => ({
  '.claude-plugin/marketplace.json': JSON.stringify(
    marketplaceCatalog(name, [{ name: 'guardlet', source: './plugins/guardlet' }]),
  ),
  'plugins/guardlet/.claude-plugin/plugin.json': JSON.stringify({
    name: 'guardlet',
    version: '1.0.0',
  }),
  'plugins/guardlet/hooks/hooks.json': JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
  }),
});

beforeAll(async () => {
  await requireGit();
  const env = gitTestEnv(ws.dir);
  await makeRepo(join(ws.dir, 'work'), env, files('acme'));
  await mkdir(join(ws.dir, 'gh', 'acme'), { recursive: true });
  git(ws.dir, env, 'clone', '-q', '--bare', 'work', join('gh', 'acme', 'market.git'));
}, INSTALL_TIMEOUT_MS);

/** ~/.gitconfig sending https://github.com/ to the repositories under `gh/`. */
async function githubHere(): Promise<void> {
  const base = `${join(ws.dir, 'gh')}/`;
  await writeFile(
    join(ws.home, '.gitconfig'),
    `[url "${base}"]\n\tinsteadOf = https://github.com/\n`,
  );
}

describe('registry add owner/repo (registry.md, registry kinds)', () => {
  it('owner/repo with no such path adds the GitHub repository, and its plugins install', async () => {
    await githubHere();
    const added = await ws.hookpm(['registry', 'add', 'team', 'acme/market', '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).added).toMatchObject({
      kind: 'marketplace',
      location: 'https://github.com/acme/market.git',
    });
    const installed = await ws.hookpm(['install', 'guardlet@team', '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
  });

  it('owner/repo naming a directory that exists reads that directory', async () => {
    await githubHere();
    await writeFiles(join(ws.repo, 'acme', 'market'), files('local'));
    const added = await ws.hookpm(['registry', 'add', 'team', 'acme/market', '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).added).toMatchObject({
      kind: 'marketplace',
      location: join(ws.repo, 'acme', 'market'),
    });
  });
});
