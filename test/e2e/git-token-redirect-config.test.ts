/**
 * K6: with a token to send, git follows no redirect whatever the user's own git configuration says
 * (a `followRedirects` for the host in ~/.gitconfig, or GIT_CONFIG_PARAMETERS from an outer
 * `git -c`): git would carry the token's header to the host the redirect leads to. The built CLI
 * against loopback smart-HTTP servers (test/helpers/git-http-server.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { git, gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';

const ws = useBinWorkspace('git-redirect-config');
const GH = 'ghp_redirect_token_0123456789';

let open: GitHttpServer;
let redirector: GitHttpServer;

beforeAll(async () => {
  const gitPath = await requireGit();
  const root = join(ws.dir, 'srv');
  const env = gitTestEnv(ws.dir);
  const work = join(ws.dir, 'work');
  await makeRepo(work, env, {
    '.claude-plugin/marketplace.json': JSON.stringify(
      marketplaceCatalog('acme', [{ name: 'guardlet', source: './plugins/guardlet' }]),
    ),
    'plugins/guardlet/.claude-plugin/plugin.json': JSON.stringify({
      name: 'guardlet',
      version: '1.0.0',
    }),
  });
  await mkdir(join(root, 'acme'), { recursive: true });
  git(ws.dir, env, 'clone', '-q', '--bare', work, join(root, 'acme', 'market.git'));
  open = await startGitHttpServer(root, gitPath, () => true);
  redirector = await startGitHttpServer(root, gitPath, () => true, open.origin);
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  for (const server of [open, redirector]) await server?.close();
});

/** settings.json naming the redirector a GitHub host, so GITHUB_TOKEN goes to it. */
async function githubRedirector(): Promise<void> {
  const dir = join(ws.home, 'hookpm', 'config');
  await mkdir(dir, { recursive: true });
  const hosts = { github: [redirector.host] };
  await writeFile(join(dir, 'settings.json'), JSON.stringify({ git: { hosts } }));
}

async function addThroughRedirect(env: Record<string, string>): Promise<void> {
  const before = open.requests.length;
  const run = await ws.hookpm(
    ['registry', 'add', 'acme', `${redirector.origin}/acme/market.git`, '--json'],
    { env },
  );
  const sent = open.requests.slice(before).map((r) => r.headers.authorization);
  expect(sent.filter((value) => value !== undefined)).toEqual([]);
  expect(run.stdout + run.stderr).toMatch(/E_GIT/);
  expect(run.stdout + run.stderr).not.toContain(GH);
}

describe('K6: no redirect with a token, whatever git is configured to do', () => {
  it("K6: a followRedirects for the host in the user's ~/.gitconfig does not carry the token elsewhere", async () => {
    await githubRedirector();
    for (const key of [`${redirector.origin}/`, `${redirector.origin}/acme/market.git`]) {
      await writeFile(join(ws.home, '.gitconfig'), `[http "${key}"]\n\tfollowRedirects = true\n`);
      await addThroughRedirect(ws.env({ GITHUB_TOKEN: GH }));
    }
  });

  it('K6: GIT_CONFIG_PARAMETERS from an outer git -c does not carry the token elsewhere', async () => {
    await githubRedirector();
    await addThroughRedirect(
      ws.env({ GITHUB_TOKEN: GH, GIT_CONFIG_PARAMETERS: "'http.followredirects'='true'" }),
    );
  });
});
