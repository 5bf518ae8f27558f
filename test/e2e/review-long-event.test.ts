/**
 * security.md (nothing hookpm prints grows without bound with its input) and plugins.md Q3: a
 * plugin whose hooks document holds a 100 KB unknown event key is reviewed and validated in a
 * bounded output: the review's heading, its INERT note and its diagnostic quote at most a prefix
 * of the key; `--json` keeps it whole. The built CLI on a real plugin directory.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';

const KEY = `Pre${'X'.repeat(100_000)}`;
let root: string;
let plugin: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  root = await mkdtemp(join(tmpdir(), 'hookpm-long-event-'));
  plugin = join(root, 'p');
  await mkdir(join(plugin, 'hooks'), { recursive: true });
  await writeFile(join(plugin, 'plugin.json'), JSON.stringify({ name: 'long', version: '1.0.0' }));
  const hooks = { hooks: { [KEY]: [{ hooks: [{ type: 'command', command: 'true' }] }] } };
  await writeFile(join(plugin, 'hooks', 'hooks.json'), JSON.stringify(hooks));
  env = { ...(process.env as Record<string, string>), HOME: root, HOOKPM_HOME: join(root, 'h') };
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a 100 KB unknown event key', () => {
  it('review and validate print a bounded prefix of it; review --json keeps it whole', async () => {
    const review = await runBin(['review', plugin], { env, cwd: root });
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout.length).toBeLessThan(5_000);
    expect(review.stdout).toContain(`${KEY.slice(0, 200)}...`);
    const validate = await runBin(['validate', plugin], { env, cwd: root });
    expect(validate.stdout.length + validate.stderr.length).toBeLessThan(5_000);
    const json = await runBin(['review', plugin, '--json'], { env, cwd: root });
    expect(JSON.parse(json.stdout).hooks[0].event).toBe(KEY);
  });
});
