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

  it("a pure module may import node:net's address functions, and nothing else of it", () => {
    const ok = lint(tree({ 'hooks/a.ts': "import { BlockList, isIP } from 'node:net';\n" }));
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const r = lint(tree({ 'hooks/a.ts': "import { isIP, connect } from 'node:net';\n" }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('a pure module imports node:net');
  });

  it('imports point down only: a pure module may not import ops or cli', () => {
    const r = lint(
      tree({ 'hooks/a.ts': "import { x } from '../ops/cmd/b.js';\n", 'ops/cmd/b.ts': '' }),
    );
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
        'ops/cmd/a.ts':
          "import { x } from '../../store/b.js';\nimport { y } from '../../hooks/c.js';\n",
        'store/b.ts': "import { y } from '../hooks/c.js';\n",
        'hooks/c.ts': '',
      }),
    );
    expect(r.status).toBe(0);
  });

  it('a dispatcher that imports its variants, which import only a leaf, is no cycle', () => {
    const r = lint(
      tree({
        'ops/cmd/types.ts': 'export interface Source { kind: string }\n',
        'ops/cmd/stage.ts':
          "import type { Source } from './types.js';\nexport const table = { x: () => import('./stage-x.js') };\n",
        'ops/cmd/stage-x.ts': "import type { Source } from './types.js';\nexport const x = 1;\n",
      }),
    );
    expect(r.status).toBe(0);
  });
});

/** The same text in ops/cmd/ and cli/: only the ops/ copy may be reported. */
const talking = (text: string): Record<string, string> => ({
  'ops/cmd/a.ts': text,
  'cli/a.ts': text,
});

describe('STYLE.md layers, ops/: commands over shared steps', () => {
  it('a command folder may import step folders, which import each other without a cycle', () => {
    const r = lint(
      tree({
        'ops/install/install.ts': "import { stage } from '../steps/staging/stage.js';\n",
        'ops/plugins/update.ts':
          "import { stage } from '../steps/staging/stage.js';\nimport { c } from '../steps/context/c.js';\n",
        'ops/steps/staging/stage.ts':
          "import { c } from '../context/c.js';\nexport const stage = c;\n",
        'ops/steps/context/c.ts': 'export const c = 1;\n',
      }),
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a command folder never imports another command folder', () => {
    const r = lint(
      tree({
        'ops/plugins/update.ts': "import { install } from '../install/install.js';\n",
        'ops/install/install.ts': 'export const install = 1;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'ops/plugins/update.ts: command folder ops/plugins/ imports ops/install/install.ts of command folder ops/install/ (a command folder never imports another command folder)',
    );
  });

  it('a type-only import of a sibling command folder counts all the same', () => {
    const r = lint(
      tree({
        'ops/plugins/update.ts': "import type { Install } from '../install/install.js';\n",
        'ops/install/install.ts': 'export interface Install { a: 1 }\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('a command folder never imports another command folder');
  });

  it('a step folder never imports a command folder', () => {
    const r = lint(
      tree({
        'ops/steps/staging/stage.ts': "import { install } from '../../install/install.js';\n",
        'ops/install/install.ts': 'export const install = 1;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'ops/steps/staging/stage.ts: step folder ops/steps/staging/ imports ops/install/install.ts of command folder ops/install/ (a step never imports a command folder)',
    );
  });

  it('step folders import each other in no cycle, even when their files do not', () => {
    const r = lint(
      tree({
        'ops/steps/staging/stage.ts': "import { c } from '../context/c.js';\nexport const s = c;\n",
        'ops/steps/staging/types.ts': 'export const t = 1;\n',
        'ops/steps/context/c.ts': 'export const c = 1;\n',
        'ops/steps/context/d.ts': "import { t } from '../staging/types.js';\nexport const d = t;\n",
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('lint-layers: 1 problem(s)');
    expect(r.stderr).toContain(
      'step folder cycle: ops/steps/context/ -> ops/steps/staging/ -> ops/steps/context/ (step folders import each other in no cycle)',
    );
  });

  it('no file sits directly in ops/ or ops/steps/', () => {
    const r = lint(tree({ 'ops/context.ts': '', 'ops/steps/shared.ts': '' }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'ops/context.ts: a file directly in ops/ (it belongs to a command folder or a step folder)',
    );
    expect(r.stderr).toContain(
      'ops/steps/shared.ts: a file directly in ops/steps/ (it belongs to a command folder or a step folder)',
    );
  });
});

describe('npm run lint rejects what STYLE.md forbids', () => {
  const rejected: Array<[name: string, files: Record<string, string>, message: string]> = [
    [
      'STYLE.md layers (imports point down only): two ops/ files that import each other are an import cycle',
      {
        'ops/cmd/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
        'ops/cmd/b.ts': "import { a } from './a.js';\nexport const b = 2;\n",
      },
      'import cycle: ops/cmd/a.ts -> ops/cmd/b.ts -> ops/cmd/a.ts',
    ],
    [
      'STYLE.md layers (imports point down only): a cycle made only of `import type` lines is a cycle all the same',
      {
        'ops/cmd/a.ts': "import type { B } from './b.js';\nexport interface A { b: B }\n",
        'ops/cmd/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
      },
      'import cycle: ops/cmd/a.ts -> ops/cmd/b.ts -> ops/cmd/a.ts',
    ],
    [
      'STYLE.md layers (imports point down only): a dynamic import() closes a cycle as a static import does',
      {
        'ops/cmd/a.ts': "export const loadB = () => import('./b.js');\n",
        'ops/cmd/b.ts': "import { loadB } from './a.js';\nexport const b = loadB;\n",
      },
      'import cycle: ops/cmd/a.ts -> ops/cmd/b.ts -> ops/cmd/a.ts',
    ],
    [
      'STYLE.md rule 1 (only cli/ prints): a console.log in a file under ops/ is rejected, in cli/ allowed',
      talking("export function a(): void {\n  console.log('hi');\n}\n"),
      'ops/cmd/a.ts: prints (console) outside cli/ (only cli/ talks)',
    ],
    [
      'STYLE.md rule 1 (only cli/ exits): process.exit outside cli/ is rejected, in cli/ allowed',
      talking('export function a(): void {\n  process.exit(2);\n}\n'),
      'ops/cmd/a.ts: exits (process.exit/exitCode) outside cli/ (only cli/ talks)',
    ],
    [
      'STYLE.md rule 1 (only cli/ prompts): a readline import outside cli/ is rejected, in cli/ allowed',
      talking("import { createInterface } from 'node:readline';\n"),
      'ops/cmd/a.ts: prompts (node:readline) outside cli/ (only cli/ talks)',
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
