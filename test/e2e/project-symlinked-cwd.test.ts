/**
 * docs/reference/rules/engine.md T2 with the built binary: a project command given a working
 * directory through a symlink works on the project that directory really is in, as runs and
 * workspace trust see it: the hookpm.json and hookpm.lock it reads are those of the project whose
 * records it changes.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

const ws = useBinWorkspace('e2e-project-symlinked-cwd');

describe('a --cwd through a symlink (T2)', () => {
  it("T2: `ci --cwd <link>`, the link leading into a project's folder that holds other project files, reads the project's own files and keeps its plugins", async () => {
    const installed = await ws.hookpm(['install', '--project', 'guard@examples', '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    // A folder of the project with files that name no plugin, reached by a path with no .git above.
    const sub = join(ws.repo, 'sub');
    await mkdir(sub);
    await writeFile(join(sub, 'hookpm.json'), '{"plugins":{},"registries":{}}\n');
    await writeFile(join(sub, 'hookpm.lock'), '{"lockfileVersion":1,"plugins":{}}\n');
    const link = join(ws.dir, `link${ws.n}`);
    await symlink(sub, link);
    const ci = await ws.hookpm(['--cwd', link, 'ci', '--yes'], { cwd: ws.dir });
    expect(ci.code, ci.stderr).toBe(0);
    const list = await ws.hookpm(['list', '--project', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const { plugins } = JSON.parse(list.stdout) as { plugins: { id: string; installed: string }[] };
    expect(plugins.map((p) => [p.id, p.installed !== null])).toEqual([['guard@examples', true]]);
  });
});
