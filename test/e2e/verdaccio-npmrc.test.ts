/**
 * K4/K5 end to end against a real private npm registry (Verdaccio, test/helpers/verdaccio.ts):
 * `@acme/guardlet` is published with the real `npm publish` by a user made through the registry's
 * adduser endpoint, and `@acme/*` needs a logged-in user to read. `hookpm install
 * npm:@acme/guardlet` finds the registry from `@acme:registry` and the token from
 * `//host/:_authToken=${VAR}` in the project `.npmrc` (npm never runs), and without the token it is
 * refused clearly. The token never reaches the output, the state, the lockfile or the store.
 */
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import {
  startVerdaccio,
  VERDACCIO_START_TIMEOUT_MS,
  type Verdaccio,
} from '../helpers/verdaccio.js';

const ws = useBinWorkspace('verdaccio');
let registry: Verdaccio;
let token = '';

const HOOKS = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
});

beforeAll(async () => {
  registry = await startVerdaccio();
  token = await registry.addUser('alice', 'correct-horse-battery');
  const pkg = join(ws.dir, 'guardlet-src');
  await mkdir(join(pkg, '.claude-plugin'), { recursive: true });
  await mkdir(join(pkg, 'hooks'), { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@acme/guardlet', version: '1.2.0', license: 'MIT' }),
  );
  await writeFile(
    join(pkg, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'guardlet', version: '1.2.0' }),
  );
  await writeFile(join(pkg, 'hooks', 'hooks.json'), HOOKS);
  await registry.publish(pkg, token);
}, VERDACCIO_START_TIMEOUT_MS);
afterAll(() => registry?.stop());

/** A project `.npmrc` naming the scope's registry, and (with `auth`) its token through ${VAR}. */
async function projectNpmrc(auth: boolean): Promise<void> {
  await writeFile(join(ws.repo, 'package.json'), '{}');
  const lines = [`@acme:registry=${registry.url}`];
  if (auth) lines.push(`${registry.nerfDart}:_authToken=\${ACME_NPM_TOKEN}`);
  await writeFile(join(ws.repo, '.npmrc'), `${lines.join('\n')}\n`);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

describe('K4/K5: a scoped private package from Verdaccio with the token in .npmrc', () => {
  it('K4: install npm:@acme/guardlet works with @acme:registry and //host/:_authToken=${VAR} in the project .npmrc; the token is stored nowhere', async () => {
    await projectNpmrc(true);
    const env = ws.env({ ACME_NPM_TOKEN: token, PATH: process.env.PATH ?? '' });
    const run = await ws.hookpm(['install', 'npm:@acme/guardlet', '--yes'], { env });
    expect(run.code, run.stderr + registry.log()).toBe(0);
    const list = await ws.hookpm(['list', '--json'], { env });
    expect(list.stdout).toContain('guardlet@npm');
    expect(list.stdout).toContain('1.2.0');
    expect(run.stdout + run.stderr + list.stdout + list.stderr).not.toContain(token);
    const written = [
      ...(await filesUnder(join(ws.home, 'hookpm'))),
      ...(await filesUnder(ws.repo)).filter((f) => !f.endsWith('.npmrc')),
    ];
    expect(written.length).toBeGreaterThan(0);
    for (const file of written) {
      const bytes = await readFile(file);
      expect(bytes.includes(Buffer.from(token)), file).toBe(false);
    }
  });

  it('K5: without the token the install is refused with E_REGISTRY_NETWORK naming 401 and .npmrc', async () => {
    await projectNpmrc(false);
    const run = await ws.hookpm(['install', 'npm:@acme/guardlet', '--yes', '--json']);
    expect(run.code).toBe(1);
    const error = (
      JSON.parse(run.stdout) as { error: { code: string; message: string; hint?: string } }
    ).error;
    expect(error.code).toBe('E_REGISTRY_NETWORK');
    expect(error.message).toMatch(/401 Unauthorized .*no credentials were sent/);
    expect(JSON.stringify(error)).toContain('.npmrc');
  });

  it('K5: a wrong token is refused as sent and refused, and is not printed', async () => {
    await projectNpmrc(true);
    const env = ws.env({ ACME_NPM_TOKEN: 'not-the-real-token-xyz' });
    const run = await ws.hookpm(['install', 'npm:@acme/guardlet', '--yes'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/E_REGISTRY_NETWORK/);
    expect(run.stderr + run.stdout).not.toContain('not-the-real-token-xyz');
  });
});
