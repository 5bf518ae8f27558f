import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHookSources } from '../../src/workspace/read-hook-sources.js';

let dir: string;
let home: string;
let repo: string;

const doc = (command: string): string =>
  JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });

async function put(file: string, content: string | Uint8Array): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, content);
}
const userFile = (): string => join(home, '.deepagents', 'hooks.json');
const projectFile = (): string => join(repo, '.deepagents', 'hooks.json');

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-sources-')));
  home = join(dir, 'home');
  repo = join(dir, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'pkg'), { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const commands = (r: Awaited<ReturnType<typeof readHookSources>>) =>
  r.sources.map((s) => [s.origin, s.config.Stop?.[0]?.hooks[0]?.command]);

describe('readHookSources', () => {
  it('S1, S3: a trusted project file comes first, then the user file, each with its origin and path', async () => {
    await put(projectFile(), doc('project'));
    await put(userFile(), doc('user'));
    const result = await readHookSources({ cwd: join(repo, 'pkg'), home, trustProject: true });
    expect(result.projectDir).toBe(repo);
    expect(commands(result)).toEqual([
      ['project', 'project'],
      ['user', 'user'],
    ]);
    expect(result.sources.map((s) => s.file)).toEqual([projectFile(), userFile()]);
    expect(result.projectFile).toMatchObject({ status: 'loaded' });
    expect(result.projectFile.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.diagnostics).toEqual([]);
  });

  it('S4: the project file is not read when the workspace is not trusted, even when it is invalid', async () => {
    await put(projectFile(), '{ not json');
    await put(userFile(), doc('user'));
    const result = await readHookSources({ cwd: repo, home, trustProject: false });
    expect(commands(result)).toEqual([['user', 'user']]);
    expect(result.projectFile.status).toBe('untrusted');
    expect(result.diagnostics).toEqual([]);
  });

  it('S4: a project file that is the user file after resolving symlinks is read once, as the user file', async () => {
    await put(userFile(), doc('shared'));
    await mkdir(join(repo, '.deepagents'), { recursive: true });
    await symlink(userFile(), projectFile());
    for (const trustProject of [true, false]) {
      const result = await readHookSources({ cwd: repo, home, trustProject });
      expect(commands(result)).toEqual([['user', 'shared']]);
      expect(result.projectFile.status).toBe('same-as-user');
    }
  });

  it('S4: with the home directory as the project root, the one file is read once, as the user file', async () => {
    await mkdir(join(home, '.git'));
    await put(userFile(), doc('home'));
    const result = await readHookSources({ cwd: home, home, trustProject: true });
    expect(commands(result)).toEqual([['user', 'home']]);
  });

  it('S5: missing files are not diagnostics', async () => {
    const result = await readHookSources({ cwd: repo, home, trustProject: true });
    expect(result).toMatchObject({
      sources: [],
      diagnostics: [],
      projectFile: { status: 'missing' },
    });
  });

  it('S5: invalid JSON is config_read_failed naming file, line and column, and the other source still loads', async () => {
    await put(projectFile(), '{\n  "hooks": {,}\n}');
    await put(userFile(), doc('user'));
    const result = await readHookSources({ cwd: repo, home, trustProject: true });
    expect(commands(result)).toEqual([['user', 'user']]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'config_read_failed',
      origin: 'project',
      path: projectFile(),
    });
    expect(result.diagnostics[0]?.message).toContain(`${projectFile()}:2:`);
    expect(result.projectFile.status).toBe('failed');
  });

  it('plugins.md P4: a duplicate key in a user or project file is a duplicate_key warning and the last value is used', async () => {
    const guard = (command: string) => `{"type": "command", "command": "${command}"}`;
    await put(
      userFile(),
      `{"hooks": {"Stop": [{"hooks": [${guard('first')}]}]},
 "hooks": {"Stop": [{"hooks": [${guard('user')}]}]}}`,
    );
    await put(
      projectFile(),
      `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "command": "project"}]}]}}`,
    );
    const result = await readHookSources({ cwd: repo, home, trustProject: true });
    expect(commands(result)).toEqual([
      ['project', 'project'],
      ['user', 'user'],
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.origin, d.path])).toEqual([
      ['duplicate_key', 'warning', 'project', `${projectFile()}:1:68`],
      ['duplicate_key', 'warning', 'user', `${userFile()}:2:2`],
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      'duplicate key "command" in the object at hooks.Stop[0].hooks[0]; the last value is used',
    );
  });

  it('S5: invalid UTF-8 is config_read_failed and the source is skipped', async () => {
    await put(userFile(), Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    const result = await readHookSources({ cwd: repo, home, trustProject: false });
    expect(result.sources).toEqual([]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]?.message).toMatch(/UTF-8/);
  });

  it('S5: an unreadable file (a directory in its place) is config_read_failed', async () => {
    await mkdir(userFile(), { recursive: true });
    const result = await readHookSources({ cwd: repo, home, trustProject: false });
    expect(result.diagnostics.map((d) => [d.code, d.origin])).toEqual([
      ['config_read_failed', 'user'],
    ]);
  });

  it('P4/S5: a leading byte-order mark is accepted with a warning', async () => {
    await put(userFile(), `\ufeff${doc('bom')}`);
    const result = await readHookSources({ cwd: repo, home, trustProject: false });
    expect(commands(result)).toEqual([['user', 'bom']]);
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['byte_order_mark', 'warning'],
    ]);
  });

  it('C2/S6: a document that is not of the hooks shape loads nothing, says why, and takes nothing else down', async () => {
    await put(projectFile(), JSON.stringify({ Stop: [] }));
    await put(userFile(), doc('user'));
    const result = await readHookSources({ cwd: repo, home, trustProject: true });
    expect(commands(result)).toEqual([['user', 'user']]);
    expect(result.diagnostics.map((d) => [d.code, d.origin])).toEqual([
      ['invalid_config', 'project'],
    ]);
  });

  it('C4: a legacy list-shaped user file is migrated, with its diagnostics', async () => {
    await put(
      userFile(),
      JSON.stringify({ hooks: [{ command: ['notify-send', 'done'], events: ['session.end'] }] }),
    );
    const result = await readHookSources({ cwd: repo, home, trustProject: false });
    expect(Object.keys(result.sources[0]?.config ?? {})).toEqual(['SessionEnd']);
    expect(result.diagnostics.map((d) => d.code)).toContain('legacy_migrated');
  });
});

describe('readHookSources of a very large user file', () => {
  it('C1: 200,000 invalid handlers in the user file each give a diagnostic, never E_INTERNAL', async () => {
    const many = Array.from({ length: 200_000 }, () => ({ type: 'prompt', prompt: 'x' }));
    await put(userFile(), JSON.stringify({ hooks: { Stop: [{ hooks: many }] } }));
    const result = await readHookSources({ cwd: repo, home, trustProject: true });
    const invalid = result.diagnostics.filter((d) => d.code === 'invalid_config');
    expect(invalid.length).toBeGreaterThanOrEqual(200_000);
  });
});
