/**
 * Child processes in tests run the real modules: this transpiles src/ (TypeScript, no type check)
 * into a temporary directory that child fixture scripts import from. The directory links the
 * repository's node_modules so bare imports (zod, env-paths) resolve.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CompiledSrc {
  /** The directory holding the transpiled src/ tree (`<dir>/io/lock.js`, ...). */
  dir: string;
  cleanup: () => Promise<void>;
}

export async function compileSrc(): Promise<CompiledSrc> {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-src-'));
  const out = join(root, 'src');
  await writeFile(join(root, 'package.json'), '{"type":"module"}\n');
  await symlink(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  const srcDir = join(repo, 'src');
  for (const file of await listTs(srcDir)) {
    const text = await readFile(file, 'utf8');
    const { outputText } = ts.transpileModule(text, {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    const target = join(out, relative(srcDir, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText);
  }
  return { dir: out, cleanup: () => rm(root, { recursive: true, force: true }) };
}

async function listTs(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listTs(full)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

/**
 * For a test file whose child processes run the compiled sources: before its tests, compiles
 * them and makes a temporary directory (`dir`, the children's HOME and HOOKPM_HOME, in `env`);
 * after them, removes both. The fields are set once the tests run.
 */
export function compiledSandbox(prefix: string): { dir: string; env: Record<string, string> } {
  const sandbox = { dir: '', env: {} as Record<string, string> };
  let compiled: CompiledSrc | undefined;
  beforeAll(async () => {
    compiled = await compileSrc();
    sandbox.dir = await mkdtemp(join(tmpdir(), prefix));
    sandbox.env = {
      ...(process.env as Record<string, string>),
      HOME: sandbox.dir,
      HOOKPM_HOME: sandbox.dir,
      HOOKPM_TEST_SRC: compiled.dir,
    };
  });
  afterAll(async () => {
    await compiled?.cleanup();
    if (sandbox.dir !== '') await rm(sandbox.dir, { recursive: true, force: true });
  });
  return sandbox;
}
