import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'lint-layers.mjs');
let dir: string;

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'hookpm-lint-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function lint(root: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('STYLE.md layers', () => {
  it('the repository source tree keeps its layers', () => {
    dir = mkdtempSync(join(tmpdir(), 'hookpm-lint-'));
    expect(execFileSync(process.execPath, [script], { encoding: 'utf8' })).toContain('ok');
  });

  it('a pure module may not import node:fs or read process', () => {
    const r = lint(
      tree({
        'hooks/a.ts':
          "import { readFileSync } from 'node:fs';\nexport const x = process.env.HOME;\n",
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('a pure module imports node:fs');
    expect(r.stderr).toContain('a pure module reads `process`');
  });

  it('imports point down only: a pure module may not import ops or cli', () => {
    const r = lint(tree({ 'hooks/a.ts': "import { x } from '../ops/b.js';\n", 'ops/b.ts': '' }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('pure imports ops module');
  });

  it('adapters never import each other', () => {
    const r = lint(
      tree({ 'store/a.ts': "import { x } from '../workspace/b.js';\n", 'workspace/b.ts': '' }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('adapters never import each other');
  });

  it('ops may compose adapters and pure modules', () => {
    const r = lint(
      tree({
        'ops/a.ts': "import { x } from '../store/b.js';\nimport { y } from '../hooks/c.js';\n",
        'store/b.ts': "import { y } from '../hooks/c.js';\n",
        'hooks/c.ts': '',
      }),
    );
    expect(r.status).toBe(0);
  });
});
