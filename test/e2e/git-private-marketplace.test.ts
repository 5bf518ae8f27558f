/**
 * K6 end to end: private marketplaces over HTTPS-style git (a loopback smart-HTTP server running
 * `git http-backend`, test/helpers/git-http-server.ts) that answer 401 without the right
 * Authorization header. GITHUB_TOKEN/GH_TOKEN and GITLAB_TOKEN reach hosts of their kind (here
 * loopback hosts listed in settings.json `git.hosts`, as a GitHub Enterprise or self-hosted GitLab
 * would be, since github.com cannot be reached from tests), settings.json `git.headersHelper` adds
 * headers for the host it is asked about, and nothing is sent to any other host. The built CLI.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { git, gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';

const ws = useBinWorkspace('git-private');
const GH = 'ghp_test_token_0123456789';
const GL = 'glpat-test-token-abcdef';
const HELPER = 'helper-bearer-xyz';

const basic = (user: string, token: string): string =>
  `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
const wants =
  (value: string) =>
  (headers: IncomingHttpHeaders): boolean =>
    headers.authorization === value;

let github: GitHttpServer;
let gitlab: GitHttpServer;
let helperHost: GitHttpServer;
let open: GitHttpServer;
let redirector: GitHttpServer;
let userinfo: GitHttpServer;
let gitPath: string;

beforeAll(async () => {
  gitPath = await requireGit();
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
    'plugins/guardlet/hooks/hooks.json': JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  });
  await mkdir(join(root, 'acme'), { recursive: true });
  git(ws.dir, env, 'clone', '-q', '--bare', work, join(root, 'acme', 'market.git'));
  github = await startGitHttpServer(root, gitPath, wants(basic('x-access-token', GH)));
  gitlab = await startGitHttpServer(root, gitPath, wants(basic('oauth2', GL)));
  helperHost = await startGitHttpServer(root, gitPath, wants(`Bearer ${HELPER}`));
  open = await startGitHttpServer(root, gitPath, () => true);
  redirector = await startGitHttpServer(root, gitPath, () => true, open.origin);
  userinfo = await startGitHttpServer(root, gitPath, wants(basic('alice', 's3cret:x')));
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  for (const server of [github, gitlab, helperHost, open, redirector, userinfo])
    await server?.close();
});

/** settings.json naming the loopback servers' kinds, and optionally a headers helper. */
async function settings(extra: Record<string, unknown> = {}): Promise<void> {
  const dir = join(ws.home, 'hookpm', 'config');
  await mkdir(dir, { recursive: true });
  const hosts = { github: [github.host, redirector.host], gitlab: [gitlab.host] };
  await writeFile(join(dir, 'settings.json'), JSON.stringify({ git: { hosts, ...extra } }));
}

const market = (server: GitHttpServer): string => `${server.origin}/acme/market.git`;

describe('K6: token-protected git marketplaces', () => {
  it('K6: GITHUB_TOKEN is sent to a GitHub host; add and install work, and the token is never printed', async () => {
    await settings();
    const env = ws.env({ GITHUB_TOKEN: GH });
    const added = await ws.hookpm(['registry', 'add', 'acme', market(github)], { env });
    expect(added.code, added.stderr).toBe(0);
    const installed = await ws.hookpm(['install', 'guardlet@acme', '--yes'], { env });
    expect(installed.code, installed.stderr).toBe(0);
    const out = added.stdout + added.stderr + installed.stdout + installed.stderr;
    expect(out).not.toContain(GH);
    const state = await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8');
    expect(state).not.toContain(GH);
    expect(state).not.toContain(Buffer.from(`x-access-token:${GH}`).toString('base64'));
  });

  it('K6: GH_TOKEN works too; without a token the clone is refused with E_GIT', async () => {
    await settings();
    const ok = await ws.hookpm(['registry', 'add', 'acme', market(github)], {
      env: ws.env({ GH_TOKEN: GH }),
    });
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await ws.hookpm(['registry', 'add', 'acme2', market(github), '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/E_GIT/);
  });

  it('K6: GITLAB_TOKEN goes to a GitLab host as oauth2 Basic auth, and GITHUB_TOKEN does not', async () => {
    await settings();
    const env = ws.env({ GITLAB_TOKEN: GL, GITHUB_TOKEN: GH });
    const before = gitlab.requests.length;
    const added = await ws.hookpm(['registry', 'add', 'acme', market(gitlab)], { env });
    expect(added.code, added.stderr).toBe(0);
    const sent = gitlab.requests.slice(before).map((r) => r.headers.authorization);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set([basic('oauth2', GL)]));
  });

  it('K6: a host of no known kind gets no token, whatever is set', async () => {
    await settings();
    const env = ws.env({ GITLAB_TOKEN: GL, GITHUB_TOKEN: GH, GH_TOKEN: GH });
    const before = open.requests.length;
    const added = await ws.hookpm(['registry', 'add', 'acme', market(open)], { env });
    expect(added.code, added.stderr).toBe(0);
    const seen = open.requests.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) expect(r.headers.authorization).toBeUndefined();
  });

  it('K6: git.headersHelper prints headers for the host it is asked about, and only that host gets them', async () => {
    const record = join(ws.dir, `helper-${ws.n}.log`);
    const script = join(ws.dir, `helper-${ws.n}.mjs`);
    await writeFile(
      script,
      [
        "import { appendFileSync } from 'node:fs';",
        `appendFileSync(${JSON.stringify(record)}, process.env.HOOKPM_GIT_URL + '\\n');`,
        `const mine = process.env.HOOKPM_GIT_HOST === ${JSON.stringify(helperHost.host)};`,
        `console.log(JSON.stringify(mine ? { Authorization: 'Bearer ${HELPER}' } : {}));`,
      ].join('\n'),
    );
    await settings({ headersHelper: `node ${script}` });
    const added = await ws.hookpm(['registry', 'add', 'acme', market(helperHost)]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(HELPER);
    expect(await readFile(record, 'utf8')).toContain(`${market(helperHost)}`);
    const before = open.requests.length;
    const other = await ws.hookpm(['registry', 'add', 'other', market(open)]);
    expect(other.code, other.stderr).toBe(0);
    for (const r of open.requests.slice(before)) expect(r.headers.authorization).toBeUndefined();
  });

  it("K6: the helper's header replaces the token's of the same name spelled in another case", async () => {
    const hosts = { github: [helperHost.host] };
    await settings({ hosts, headersHelper: `echo '{"authorization":"Bearer ${HELPER}"}'` });
    const before = helperHost.requests.length;
    const added = await ws.hookpm(['registry', 'add', 'acme', market(helperHost)], {
      env: ws.env({ GITHUB_TOKEN: GH }),
    });
    expect(added.code, added.stderr).toBe(0);
    for (const r of helperHost.requests.slice(before))
      expect(r.headers.authorization).toBe(`Bearer ${HELPER}`);
  });

  it('K6: a headers helper that fails is E_GIT naming the helper, never its output', async () => {
    await settings({ headersHelper: "echo 'Authorization: leaked-secret'; exit 3" });
    const run = await ws.hookpm(['registry', 'add', 'acme', market(helperHost), '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/headers helper failed .*exit 3/);
    expect(run.stdout + run.stderr).not.toContain('leaked-secret');
  });

  /** `registry add` through the redirector with `env`: refused, and `open` given no token. */
  async function addThroughRedirect(env: Record<string, string>): Promise<void> {
    const before = open.requests.length;
    const run = await ws.hookpm(['registry', 'add', 'acme', market(redirector), '--json'], {
      env,
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/E_GIT/);
    expect(run.stdout + run.stderr).not.toContain(GH);
    for (const r of open.requests.slice(before)) expect(r.headers.authorization).toBeUndefined();
  }

  it('K6: with a token to send, a redirect to another host is not followed, and that host gets nothing', async () => {
    await settings();
    await addThroughRedirect(ws.env({ GITHUB_TOKEN: GH }));
  });

  it("K6: a followRedirects for the host in the user's ~/.gitconfig does not carry the token elsewhere", async () => {
    await settings();
    for (const key of [`${redirector.origin}/`, market(redirector)]) {
      await writeFile(join(ws.home, '.gitconfig'), `[http "${key}"]\n\tfollowRedirects = true\n`);
      await addThroughRedirect(ws.env({ GITHUB_TOKEN: GH }));
    }
  });

  it('K6: GIT_CONFIG_PARAMETERS from an outer git -c does not carry the token elsewhere', async () => {
    await settings();
    await addThroughRedirect(
      ws.env({ GITHUB_TOKEN: GH, GIT_CONFIG_PARAMETERS: "'http.followredirects'='true'" }),
    );
  });

  it("K6: a URL's own user and password reach its host as Basic auth, never on git's command line", async () => {
    await settings();
    // A git on PATH that logs its arguments, then runs the real one: what `ps` would show.
    const shim = join(ws.dir, `git-shim-${ws.n}`);
    const log = join(shim, 'argv.log');
    await mkdir(shim, { recursive: true });
    await writeFile(
      join(shim, 'git'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(gitPath)} "$@"\n`,
    );
    await chmod(join(shim, 'git'), 0o755);
    const env = ws.env({ PATH: `${shim}:${process.env.PATH ?? ''}`, GITHUB_TOKEN: GH });
    const url = `http://alice:s3cret%3Ax@${userinfo.host}/acme/market.git`;
    const before = userinfo.requests.length;
    const added = await ws.hookpm(['registry', 'add', 'acme', url], { env });
    expect(added.code, added.stderr).toBe(0);
    const argv = await readFile(log, 'utf8');
    expect(argv).toContain(`${userinfo.origin}/acme/market.git`);
    expect(argv).not.toContain('s3cret');
    expect(argv).not.toContain('alice');
    const sent = userinfo.requests.slice(before).map((r) => r.headers.authorization);
    expect(new Set(sent)).toEqual(new Set([basic('alice', 's3cret:x')]));
    expect(added.stdout + added.stderr).not.toContain('s3cret');
  });

  it("K6: a URL with a user and no password is left to git's credential helpers, asked for that user", async () => {
    await settings();
    // A helper that knows alice's password only when asked for alice, as for one of two accounts.
    const helper = join(ws.dir, `credential-helper-${ws.n}`);
    await writeFile(
      helper,
      `#!/bin/sh\ngrep -q '^username=alice$' && printf 'username=alice\\npassword=s3cret:x\\n'\nexit 0\n`,
    );
    await chmod(helper, 0o755);
    await writeFile(join(ws.home, '.gitconfig'), `[credential]\n\thelper = ${helper}\n`);
    const before = userinfo.requests.length;
    const url = `http://alice@${userinfo.host}/acme/market.git`;
    const added = await ws.hookpm(['registry', 'add', 'acme', url], { env: ws.env() });
    expect(added.code, added.stderr).toBe(0);
    const sent = userinfo.requests.slice(before).map((r) => r.headers.authorization);
    expect(sent).toContain(basic('alice', 's3cret:x'));
    expect(sent).not.toContain(basic('alice', ''));
  });

  it("K6: a URL the user's git insteadOf rewrites gets the token of the host git then fetches from, and only that host", async () => {
    await settings();
    const env = ws.env({ GITHUB_TOKEN: GH });
    // `git@github.com:` written for `https://github.com/` (or back), as users set it for git.
    await writeFile(
      join(ws.home, '.gitconfig'),
      `[url "${github.origin}/"]\n\tinsteadOf = git@example.test:\n` +
        `[url "${open.origin}/"]\n\tinsteadOf = ${github.origin}/mirrored/\n`,
    );
    const before = github.requests.length;
    const added = await ws.hookpm(['registry', 'add', 'acme', 'git@example.test:acme/market.git'], {
      env,
    });
    expect(added.code, added.stderr).toBe(0);
    const sent = github.requests.slice(before).map((r) => r.headers.authorization);
    expect(new Set(sent)).toEqual(new Set([basic('x-access-token', GH)]));
    const seen = open.requests.length;
    const other = await ws.hookpm(
      ['registry', 'add', 'other', `${github.origin}/mirrored/acme/market.git`],
      {
        env,
      },
    );
    expect(other.code, other.stderr).toBe(0);
    expect(open.requests.length).toBeGreaterThan(seen);
    for (const r of open.requests.slice(seen)) expect(r.headers.authorization).toBeUndefined();
  });
});
