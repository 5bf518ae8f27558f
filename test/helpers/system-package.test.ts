/**
 * The tests' system tools (test/helpers/system-package.ts): found on PATH or in the system's
 * directories, else installed from their Debian package once, under one lock, when root with
 * apt-get; else a failure naming the exact command. Nothing of the machine is uninstalled or
 * installed here: the missing tool has a name no package provides, and apt-get is a stand-in
 * script on PATH (the real one would change the machine) that records its argv and, for
 * `install`, creates the tool in the stand-in's directory.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordedLines, writeAptGet } from './apt-stand-in.js';
import { useTempDirs } from './temp-dir.js';
import { installLine, KNOWN_DIRS, requireTool, type SystemTool } from './system-package.js';

let dir: string;
let bin: string;
let calls: string;

/** A tool no Debian package provides, so it is never found outside `bin`. */
const TOOL: SystemTool = { command: 'hookpm-test-tool', package: 'hookpm-test-pkg' };
const OTHER: SystemTool = { command: 'hookpm-test-other', package: 'hookpm-test-other-pkg' };

const freshDir = useTempDirs('hookpm-system-package-');

beforeEach(async () => {
  dir = await freshDir();
  bin = join(dir, 'bin');
  calls = join(dir, 'apt-calls.txt');
  await mkdir(bin);
});

/**
 * A stand-in apt-get: appends its argv to `calls`; `install -y <pkg>` waits a little, then (if
 * `creates`) makes the tool named by $TOOL_<pkg with dashes as underscores> in `bin`. Two installs
 * at once append OVERLAP (the `running` marker is there).
 */
async function fakeAptGet(creates: boolean): Promise<void> {
  const make = creates
    ? `var=$(echo "TOOL_$3" | tr - _); eval target=\\$$var; printf '#!/bin/sh\\n' > "${bin}/$target"; chmod +x "${bin}/$target"`
    : 'true';
  const script = `#!/bin/sh
echo "$*" >> "${calls}"
if [ "$1" = install ]; then
  [ -e "${dir}/running" ] && echo OVERLAP >> "${calls}"
  touch "${dir}/running"; sleep 0.3; ${make}; rm -f "${dir}/running"
fi
`;
  await writeAptGet(bin, script);
}

const recorded = (): Promise<string[]> => recordedLines(calls);

function env(): NodeJS.ProcessEnv {
  return {
    PATH: `${bin}:/usr/bin:/bin`,
    TOOL_hookpm_test_pkg: TOOL.command,
    TOOL_hookpm_test_other_pkg: OTHER.command,
  };
}

describe('requireTool (no test passes vacuously for a missing tool)', () => {
  it('returns the path of a tool on PATH, installing nothing', async () => {
    await fakeAptGet(true);
    await writeFile(join(bin, TOOL.command), '#!/bin/sh\n');
    await chmod(join(bin, TOOL.command), 0o755);
    await expect(requireTool(TOOL, { env: env(), root: true })).resolves.toBe(
      join(bin, TOOL.command),
    );
    expect(await recorded()).toEqual([]);
  });

  it("finds a tool in the system's directories when the test's PATH leaves them out", async () => {
    const sh = await requireTool({ command: 'sh', package: 'dash' }, { env: { PATH: bin } });
    expect(KNOWN_DIRS.map((d) => join(d, 'sh'))).toContain(sh);
  });

  it('a file that is not executable is not the tool', async () => {
    await writeFile(join(bin, TOOL.command), '#!/bin/sh\n');
    const error = await requireTool(TOOL, { env: env(), root: false }).catch((e: unknown) => e);
    expect((error as Error).message).toContain('hookpm-test-tool (Debian package hookpm-test-pkg)');
  });

  it('not root: fails naming the tool, its package and the exact sudo apt-get command, and runs nothing', async () => {
    await fakeAptGet(true);
    const error = await requireTool(
      { ...TOOL, neededBy: 'the completion tests' },
      { env: env(), root: false },
    ).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(
      'the completion tests need hookpm-test-tool (Debian package hookpm-test-pkg), which is neither on PATH',
    );
    expect(message).toContain('this process is not root');
    expect(message).toContain(
      '\n  sudo apt-get update && sudo apt-get install -y hookpm-test-pkg\n',
    );
    expect(await recorded()).toEqual([]);
  });

  it('root without apt-get on PATH: fails with the apt-get command to run', async () => {
    const error = await requireTool(TOOL, { env: { PATH: bin }, root: true }).catch(
      (e: unknown) => e as Error,
    );
    expect((error as Error).message).toContain('apt-get is not on PATH');
    expect((error as Error).message).toContain(
      '\n  apt-get update && apt-get install -y hookpm-test-pkg\n',
    );
    expect(installLine(['zsh', 'fish'], true)).toBe(
      'apt-get update && apt-get install -y zsh fish',
    );
  });

  it('root with apt-get: parallel callers for one tool install it once (under the lock) and all get its path', async () => {
    await fakeAptGet(true);
    const logged: string[] = [];
    const opts = {
      env: env(),
      root: true,
      lockDir: join(dir, 'install.lock'),
      log: (l: string) => logged.push(l),
    };
    const found = await Promise.all([
      requireTool(TOOL, opts),
      requireTool(TOOL, opts),
      requireTool(TOOL, opts),
    ]);
    expect(found).toEqual(Array(3).fill(join(bin, TOOL.command)));
    expect(await recorded()).toEqual(['update', 'install -y hookpm-test-pkg']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^the tests: hookpm-test-tool \(Debian package hookpm-test-pkg\), which is neither on PATH .*; running apt-get update && apt-get install -y hookpm-test-pkg$/,
    );
  });

  it('two tools needed at once, from two processes: the installs take turns (dpkg has one writer), each once', async () => {
    await fakeAptGet(true);
    const lockDir = join(dir, 'install.lock');
    // The helper itself, transpiled (no type check) for plain node; each child is its own
    // process (as two vitest workers are), sharing only the lock directory.
    const source = await readFile(new URL('./system-package.ts', import.meta.url), 'utf8');
    const helper = join(dir, 'system-package.mjs');
    await writeFile(
      helper,
      ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      }).outputText,
    );
    const child = (tool: SystemTool): Promise<string> =>
      new Promise((resolve, reject) => {
        const code = `import { requireTool } from ${JSON.stringify(helper)};
          process.stdout.write(await requireTool(${JSON.stringify(tool)}, { root: true, lockDir: ${JSON.stringify(lockDir)}, log: () => {} }));`;
        const p = spawn(process.execPath, ['--input-type=module', '-e', code], {
          env: { ...process.env, ...env() },
        });
        let out = '';
        let err = '';
        p.stdout.on('data', (c: Buffer) => (out += c.toString()));
        p.stderr.on('data', (c: Buffer) => (err += c.toString()));
        p.on('close', (status) => (status === 0 ? resolve(out) : reject(new Error(err))));
      });
    expect(await Promise.all([child(TOOL), child(OTHER)])).toEqual([
      join(bin, TOOL.command),
      join(bin, OTHER.command),
    ]);
    const seen = await recorded();
    expect(seen).not.toContain('OVERLAP');
    // The second install uses the lists the first one's update fetched.
    expect(seen[0]).toBe('update');
    expect(seen.slice(1).sort()).toEqual([
      'install -y hookpm-test-other-pkg',
      'install -y hookpm-test-pkg',
    ]);
    await expect(readFile(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);

  it('root with apt-get that leaves the tool missing: fails saying so, and frees the lock', async () => {
    await fakeAptGet(false);
    const lockDir = join(dir, 'install.lock');
    const opts = { env: env(), root: true, lockDir, log: () => undefined };
    await expect(requireTool(TOOL, opts)).rejects.toThrow(
      'apt-get update && apt-get install -y hookpm-test-pkg finished, but the tests still need hookpm-test-tool',
    );
    await expect(readFile(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a failing apt-get fails naming the command, and frees the lock', async () => {
    await writeFile(join(bin, 'apt-get'), `#!/bin/sh\necho "$*" >> "${calls}"\nexit 100\n`);
    await chmod(join(bin, 'apt-get'), 0o755);
    const lockDir = join(dir, 'install.lock');
    await expect(
      requireTool(TOOL, { env: env(), root: true, lockDir, log: () => undefined }),
    ).rejects.toThrow('apt-get update failed (exit 100)');
    expect(await recorded()).toEqual(['update']);
    await expect(readFile(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
