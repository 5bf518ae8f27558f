/**
 * The browser tests find or install their browser (through test/helpers/system-package.ts, whose
 * own tests cover the lock and the failures in general), and otherwise fail with the exact command
 * to run. The machine's chromium is never uninstalled here: the missing browser is a path that does
 * not exist, and apt-get is a stand-in script on PATH (the real one would change the machine) that
 * records its argv and, for `install`, creates the browser at that path.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordedLines, writeAptGet } from '../helpers/apt-stand-in.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { installLine } from '../helpers/system-package.js';
import { CHROMIUM_ENV, findChromium } from './find-chromium.js';

let dir: string;
let bin: string;
let browser: string;
let calls: string;

const freshDir = useTempDirs('hookpm-find-chromium-');

beforeEach(async () => {
  dir = await freshDir();
  bin = join(dir, 'bin');
  browser = join(dir, 'missing', 'chromium');
  calls = join(dir, 'apt-calls.txt');
  await mkdir(bin);
});

/** A stand-in apt-get: appends its argv to `calls`; `install` waits a little, then (if `creates`) makes the browser. */
async function fakeAptGet(creates: boolean): Promise<void> {
  const make = creates
    ? `mkdir -p "$(dirname "$TARGET")" && printf '#!/bin/sh\\n' > "$TARGET" && chmod +x "$TARGET"`
    : 'true';
  const script = `#!/bin/sh
echo "$*" >> "${calls}"
if [ "$1" = install ]; then sleep 0.3; ${make}; fi
`;
  await writeAptGet(bin, script);
}

const recorded = (): Promise<string[]> => recordedLines(calls);

function env(): NodeJS.ProcessEnv {
  return { PATH: `${bin}:/usr/bin:/bin`, TARGET: browser };
}

describe('findChromium', () => {
  it('returns the browser named by HOOKPM_TEST_CHROMIUM when it is there, installing nothing', async () => {
    await fakeAptGet(true);
    const present = join(dir, 'present-chromium');
    await writeFile(present, '#!/bin/sh\n');
    await chmod(present, 0o755);
    await expect(findChromium({ env: { ...env(), [CHROMIUM_ENV]: present } })).resolves.toBe(
      present,
    );
    expect(await recorded()).toEqual([]);
  });

  it('not root: fails naming the missing path and the exact sudo apt-get command, and runs nothing', async () => {
    await fakeAptGet(true);
    const error = await findChromium({
      env: { ...env(), [CHROMIUM_ENV]: browser },
      root: false,
    }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`chromium at ${browser}, which is missing`);
    expect((error as Error).message).toContain(
      '\n  sudo apt-get update && sudo apt-get install -y chromium\n',
    );
    expect((error as Error).message).toContain(CHROMIUM_ENV);
    expect(await recorded()).toEqual([]);
  });

  it('root without apt-get on PATH: fails with the apt-get command to run', async () => {
    const error = await findChromium({
      path: browser,
      env: { PATH: bin },
      root: true,
    }).catch((e: unknown) => e as Error);
    expect((error as Error).message).toContain('apt-get is not on PATH');
    expect((error as Error).message).toContain(
      '\n  apt-get update && apt-get install -y chromium\n',
    );
    expect(installLine(['chromium'], true)).toBe('apt-get update && apt-get install -y chromium');
  });

  it('root with apt-get: two parallel callers install once (under the lock) and both get the browser', async () => {
    await fakeAptGet(true);
    const lockDir = join(dir, 'install.lock');
    const logged: string[] = [];
    const opts = {
      path: browser,
      env: env(),
      root: true,
      lockDir,
      log: (l: string) => logged.push(l),
    };
    const found = await Promise.all([findChromium(opts), findChromium(opts)]);
    expect(found).toEqual([browser, browser]);
    expect(await recorded()).toEqual(['update', 'install -y chromium']);
    expect(logged).toEqual([
      `the browser tests: chromium at ${browser}, which is missing; running apt-get update && apt-get install -y chromium`,
    ]);
  });

  it('root with apt-get that leaves the browser missing: fails saying so, and frees the lock', async () => {
    await fakeAptGet(false);
    const lockDir = join(dir, 'install.lock');
    const opts = { path: browser, env: env(), root: true, lockDir, log: () => undefined };
    await expect(findChromium(opts)).rejects.toThrow(
      `apt-get update && apt-get install -y chromium finished, but the browser tests still need chromium at ${browser}, which is missing`,
    );
    await expect(readFile(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
