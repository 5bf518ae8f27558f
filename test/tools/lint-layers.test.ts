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

  it('a dispatcher that imports its variants, which import only a leaf, is no cycle', () => {
    const r = lint(
      tree({
        'ops/types.ts': 'export interface Source { kind: string }\n',
        'ops/stage.ts':
          "import type { Source } from './types.js';\nexport const table = { x: () => import('./stage-x.js') };\n",
        'ops/stage-x.ts': "import type { Source } from './types.js';\nexport const x = 1;\n",
      }),
    );
    expect(r.status).toBe(0);
  });
});

/** The same text in ops/ and cli/: only the ops/ copy may be reported. */
const talking = (text: string): Record<string, string> => ({ 'ops/a.ts': text, 'cli/a.ts': text });

describe('npm run lint rejects what STYLE.md forbids', () => {
  const rejected: Array<[name: string, files: Record<string, string>, message: string]> = [
    [
      'STYLE.md layers (imports point down only): two ops/ files that import each other are an import cycle',
      {
        'ops/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
        'ops/b.ts': "import { a } from './a.js';\nexport const b = 2;\n",
      },
      'import cycle: ops/a.ts -> ops/b.ts -> ops/a.ts',
    ],
    [
      'STYLE.md layers (imports point down only): a cycle made only of `import type` lines is a cycle all the same',
      {
        'ops/a.ts': "import type { B } from './b.js';\nexport interface A { b: B }\n",
        'ops/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
      },
      'import cycle: ops/a.ts -> ops/b.ts -> ops/a.ts',
    ],
    [
      'STYLE.md layers (imports point down only): a dynamic import() closes a cycle as a static import does',
      {
        'ops/a.ts': "export const loadB = () => import('./b.js');\n",
        'ops/b.ts': "import { loadB } from './a.js';\nexport const b = loadB;\n",
      },
      'import cycle: ops/a.ts -> ops/b.ts -> ops/a.ts',
    ],
    [
      'STYLE.md rule 1 (only cli/ prints): a console.log in a file under ops/ is rejected, in cli/ allowed',
      talking("export function a(): void {\n  console.log('hi');\n}\n"),
      'ops/a.ts: prints (console) outside cli/ (only cli/ talks)',
    ],
    [
      'STYLE.md rule 1 (only cli/ exits): process.exit outside cli/ is rejected, in cli/ allowed',
      talking('export function a(): void {\n  process.exit(2);\n}\n'),
      'ops/a.ts: exits (process.exit/exitCode) outside cli/ (only cli/ talks)',
    ],
    [
      'STYLE.md rule 1 (only cli/ prompts): a readline import outside cli/ is rejected, in cli/ allowed',
      talking("import { createInterface } from 'node:readline';\n"),
      'ops/a.ts: prompts (node:readline) outside cli/ (only cli/ talks)',
    ],
    [
      'STYLE.md layers (adapters never import each other): store/ may not import even a pure file of registry/',
      {
        'store/a.ts': "import { integrityOf } from '../registry/integrity.js';\n",
        'registry/integrity.ts': 'export const integrityOf = 1;\n',
      },
      'store/a.ts: adapter store/ imports registry/integrity.ts (adapters never import each other)',
    ],
  ];
  it.each(rejected)('%s', (_name, files, message) => {
    const r = lint(tree(files));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('lint-layers: 1 problem(s)');
    expect(r.stderr).toContain(message);
  });
});
