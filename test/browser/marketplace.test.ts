/**
 * The marketplace page in a real browser: Debian's chromium driven by playwright-core (no browser
 * download; .ci/run installs chromium when missing). The page is opened from file://, as a user
 * opening a built registry's index.html would.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, type BuildRegistryResult } from '../../src/ops/registries/build.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { fixtureOptions } from '../../registry-fixtures/build.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(ROOT, 'test-output', 'marketplace.png');

let dir: string;
let built: BuildRegistryResult;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookpm-marketplace-'));
  built = await buildRegistry({ ...fixtureOptions(join(dir, 'registry')) });
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1100, height: 900 },
    env: { ...process.env, HOME: dir },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(pathToFileURL(join(dir, 'registry', 'index.html')).href);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await rm(dir, { recursive: true, force: true });
});

async function visibleNames(): Promise<string[]> {
  return page.locator('li.plugin:visible h2').allTextContents();
}

function pluginsHooking(event: string): string[] {
  return Object.entries(built.index.plugins)
    .filter(([, plugin]) => {
      const latest = plugin.distTags['latest'] ?? '';
      return plugin.versions[latest]?.events?.includes(event) === true;
    })
    .map(([name]) => name)
    .sort();
}

describe('the marketplace page (cli.md registry build) in chromium, from file://', () => {
  it('lists every plugin of the registry, with its description, and runs without a script or CSP error', async () => {
    const names = Object.keys(built.index.plugins).sort();
    expect(names.length).toBeGreaterThanOrEqual(6);
    expect((await visibleNames()).sort()).toEqual(names);
    const guard = built.index.plugins['guard'];
    await expect(page.locator('#plugin-guard .desc').textContent()).resolves.toBe(
      guard?.description,
    );
    await expect(page.locator('#count').textContent()).resolves.toBe(
      `${names.length} of ${names.length} plugins`,
    );
    expect(pageErrors).toEqual([]);
  });

  it('filters by an event: only the plugins whose latest version hooks it stay listed', async () => {
    const expected = pluginsHooking('PreToolUse');
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(Object.keys(built.index.plugins).length);
    await page.locator('.chip[data-event="PreToolUse"]').click();
    expect((await visibleNames()).sort()).toEqual(expected);
    await page.locator('.chip[data-event="Stop"]').click();
    expect((await visibleNames()).sort()).toEqual(pluginsHooking('Stop'));
    await page.locator('.chip[data-event=""]').click();
    expect((await visibleNames()).length).toBe(Object.keys(built.index.plugins).length);
  });

  it('searches names, descriptions and keywords', async () => {
    await page.locator('#q').fill('dotenv');
    expect(await visibleNames()).toEqual(['secrets-guard']);
    await page.locator('#q').fill('no plugin is called this');
    expect(await visibleNames()).toEqual([]);
    await expect(page.locator('#empty').isVisible()).resolves.toBe(true);
    await page.locator('#q').fill('');
    expect((await visibleNames()).length).toBe(Object.keys(built.index.plugins).length);
  });

  it('plugins.md section 4: opening a plugin shows its consent surface with the exact commands and its install command', async () => {
    const guard = page.locator('#plugin-guard');
    const command = 'node "${CLAUDE_PLUGIN_ROOT}/scripts/guard.mjs"';
    await expect(guard.locator('pre.cmd').first().isVisible()).resolves.toBe(false);
    await guard.locator('details.surface > summary').click();
    const commands = guard.locator('details.surface > pre.cmd, details.surface > .hook pre.cmd');
    await expect(commands.first().isVisible()).resolves.toBe(true);
    const latestCommands = await guard.locator('details.surface > .hook pre.cmd').allTextContents();
    expect(latestCommands).toEqual([command, command]);
    const matchers = await guard.locator('details.surface > .hook code').allTextContents();
    expect(matchers).toContain('Bash');
    expect(matchers).toContain('^mcp__.*__(shell|exec|execute|run_command|bash)$');
    await expect(guard.locator('.install code').textContent()).resolves.toBe(
      'hookpm install guard@examples',
    );
    await expect(guard.locator('.copy').getAttribute('data-copy')).resolves.toBe(
      'hookpm install guard@examples',
    );
    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await guard.locator('.copy').click();
    await expect.poll(() => guard.locator('.copy').textContent(), { timeout: 5000 }).toBe('Copied');
    expect(pageErrors).toEqual([]);
  });

  it('a hostile description and command show as text: no markup, no script runs, no dialog opens', async () => {
    const hostile =
      '<img src=x onerror="window.pwned=1;alert(1)"></script><script>window.pwned=2</script>';
    const src = join(dir, 'hostile', 'evil');
    await mkdir(join(src, '.claude-plugin'), { recursive: true });
    await mkdir(join(src, 'hooks'), { recursive: true });
    await writeFile(
      join(src, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'evil', version: '1.0.0', description: hostile }),
    );
    const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hostile }] }] } };
    await writeFile(join(src, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    await buildRegistry({
      pluginsDir: join(dir, 'hostile'),
      outDir: join(dir, 'hostile-out'),
      name: 'evil',
    });
    let dialogs = 0;
    const other = await context.newPage();
    other.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await other.goto(pathToFileURL(join(dir, 'hostile-out', 'index.html')).href);
    await expect(other.locator('#plugin-evil .desc').textContent()).resolves.toBe(hostile);
    await other.locator('#plugin-evil details.surface > summary').click();
    await expect(other.locator('#plugin-evil pre.cmd').textContent()).resolves.toBe(hostile);
    await expect(other.locator('img').count()).resolves.toBe(0);
    await expect(other.evaluate('window.pwned === undefined')).resolves.toBe(true);
    expect(dialogs).toBe(0);
    await other.close();
  });
});
