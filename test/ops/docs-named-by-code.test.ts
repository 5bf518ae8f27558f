/**
 * Documentation files a code file names are code (docs/guides/installing-plugins.md#consent), read
 * from a real tree: names followed from file to file, and never read through a link or from a FIFO.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDocsNamedByCode } from '../../src/ops/steps/review/docs-named-by-code.js';
import type { FileRole, RoledFile } from '../../src/plugin/code-files.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-named-docs-'));
  await mkdir(join(root, 'docs'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const roled = (path: string, role: FileRole, kind: RoledFile['kind'] = 'file'): RoledFile => ({
  path,
  kind,
  role,
  sha256: '0'.repeat(64),
  mode: 0o644,
});
const rolesOf = (files: RoledFile[]) =>
  Object.fromEntries(withDocsNamedByCode(root, files).map((f) => [f.path, f.role]));

describe('documentation files a code file names are code (installing-plugins.md#consent)', () => {
  it('follows names from file to file: a script names NOTES.md, which names MORE.md', async () => {
    await writeFile(join(root, 'run.sh'), '. "$(dirname "$0")/docs/NOTES.md"\n');
    await writeFile(join(root, 'docs', 'NOTES.md'), '. "$(dirname "$0")/MORE.md"\n');
    await writeFile(join(root, 'docs', 'MORE.md'), 'echo more\n');
    await writeFile(join(root, 'README.md'), 'run.sh reads docs/NOTES.md\n');
    const files = [
      roled('README.md', 'docs'),
      roled('docs/MORE.md', 'docs'),
      roled('docs/NOTES.md', 'docs'),
      roled('hooks/hooks.json', 'hooks'),
      roled('run.sh', 'code'),
    ];
    expect(rolesOf(files)).toEqual({
      'README.md': 'docs',
      'docs/MORE.md': 'code',
      'docs/NOTES.md': 'code',
      'hooks/hooks.json': 'hooks',
      'run.sh': 'code',
    });
  });

  it('a manifest a script reads is code: the surface compares only its hooks, not the settings the script acts on', async () => {
    await writeFile(
      join(root, 'run.js'),
      "const { settings } = require(process.env.CLAUDE_PLUGIN_ROOT + '/plugin.json');\n",
    );
    await writeFile(
      join(root, 'plugin.json'),
      '{"name":"guard","settings":{"rules":"rules.md"}}\n',
    );
    await writeFile(join(root, 'rules.md'), 'deny rm\n');
    const files = [
      roled('hooks/hooks.json', 'hooks'),
      roled('plugin.json', 'hooks'),
      roled('rules.md', 'docs'),
      roled('run.js', 'code'),
    ];
    expect(rolesOf(files)).toEqual({
      'hooks/hooks.json': 'hooks',
      'plugin.json': 'code',
      'rules.md': 'code',
      'run.js': 'code',
    });
  });

  it('a UTF-16 script (a PowerShell one, with its byte-order mark) names NOTES.md as well', async () => {
    const script = '\ufeff. "$PSScriptRoot\\NOTES.md"\r\n';
    await writeFile(join(root, 'run.ps1'), Buffer.from(script, 'utf16le'));
    await writeFile(join(root, 'big.ps1'), Buffer.from(script, 'utf16le').swap16());
    await writeFile(join(root, 'NOTES.md'), 'Write-Output ok\n');
    await writeFile(join(root, 'OTHER.md'), 'not named\n');
    const files = [roled('NOTES.md', 'docs'), roled('OTHER.md', 'docs'), roled('run.ps1', 'code')];
    expect(rolesOf(files)).toMatchObject({ 'NOTES.md': 'code', 'OTHER.md': 'docs' });
    const bigEndian = [roled('NOTES.md', 'docs'), roled('big.ps1', 'code')];
    expect(rolesOf(bigEndian)['NOTES.md']).toBe('code');
  });

  it('a code file that is a FIFO or a link names nothing, and the review does not wait on it', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await writeFile(join(root, 'elsewhere.sh'), 'cat NOTES.md\n');
    await symlink(join(root, 'elsewhere.sh'), join(root, 'link.sh'));
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    const files = [
      roled('NOTES.md', 'docs'),
      roled('link.sh', 'code'),
      roled('missing.sh', 'code'),
      roled('pipe', 'code'),
    ];
    expect(rolesOf(files)['NOTES.md']).toBe('docs');
  });

  it('a name past the first piece of a large file is found', async () => {
    await writeFile(
      join(root, 'big.js'),
      `${'// filler\n'.repeat(300_000)}require('./NOTES.md')\n`,
    );
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    expect(rolesOf([roled('NOTES.md', 'docs'), roled('big.js', 'code')])['NOTES.md']).toBe('code');
  });
});
