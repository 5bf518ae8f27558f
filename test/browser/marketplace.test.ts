/**
 * The marketplace page in a real browser: Debian's chromium driven by playwright-core (no browser
 * download; find-chromium.ts installs Debian's chromium when it is missing and may, and otherwise
 * fails with the command to run). The page is opened from file://, as a user opening a built
 * registry's index.html would.
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
import { findChromium } from './find-chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
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
    executablePath: await findChromium(),
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
  // Long enough for findChromium to install the browser on a fresh machine.
}, 20 * 60_000);

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
    await expect(guard.locator('.install code.install-plugin').textContent()).resolves.toBe(
      'hookpm install guard@examples',
    );
    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await guard.locator('.copy').click();
    await expect.poll(() => guard.locator('.copy').textContent(), { timeout: 5000 }).toBe('Copied');
    expect(pageErrors).toEqual([]);
  });

  it('the install commands add the registry by its name and the URL the page was opened at', async () => {
    const guard = page.locator('#plugin-guard');
    const url = pathToFileURL(join(dir, 'registry')).href + '/';
    const add = `hookpm registry add examples ${url}`;
    await expect(guard.locator('.install code.add-registry').textContent()).resolves.toBe(add);
    await expect(guard.locator('.copy').getAttribute('data-copy')).resolves.toBe(
      `${add}\nhookpm install guard@examples`,
    );
    await expect(page.locator('footer code.add-registry').textContent()).resolves.toBe(add);
  });

  it('a plugin shows the author and license of its manifest', async () => {
    await expect(page.locator('#plugin-guard .about').textContent()).resolves.toBe(
      'by hookpm examples · MIT',
    );
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px, with a plugin and its older versions expanded, nothing overflows sideways`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(
        "document.querySelectorAll('#plugin-guard details').forEach((d) => { d.open = true; })",
      );
      await expect(page.locator('#plugin-guard table.versions').isVisible()).resolves.toBe(true);
      const sizes = (await page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
      )) as { scroll: number; inner: number };
      expect(sizes.inner).toBe(width);
      expect(sizes.scroll).toBeLessThanOrEqual(sizes.inner);
      await mkdir(join(ROOT, 'test-output'), { recursive: true });
      await page.screenshot({
        path: join(ROOT, 'test-output', `marketplace-${width}.png`),
        fullPage: true,
      });
      await page.evaluate(
        "document.querySelectorAll('#plugin-guard details').forEach((d) => { d.open = false; })",
      );
      await page.setViewportSize({ width: 1100, height: 900 });
    });
  }

  it('homepage, repository and author links are shown for http(s) URLs only, escaped', async () => {
    const sources = join(dir, 'about');
    const plugin = async (name: string, manifest: Record<string, unknown>): Promise<void> => {
      await mkdir(join(sources, name, '.claude-plugin'), { recursive: true });
      await mkdir(join(sources, name, 'hooks'), { recursive: true });
      await writeFile(
        join(sources, name, '.claude-plugin', 'plugin.json'),
        JSON.stringify({ name, version: '1.0.0', description: name, ...manifest }),
      );
      const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } };
      await writeFile(join(sources, name, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    };
    await plugin('linked', {
      author: 'Ada Lovelace <ada@example.com> (https://ada.example/)',
      license: 'Apache-2.0',
      homepage: 'https://linked.example/docs?a=1&b="2"',
      repository: { type: 'git', url: 'git+https://github.com/acme/linked.git' },
    });
    await plugin('hostile-links', {
      author: { name: '<b>Mallory</b>', url: 'javascript:alert(1)' },
      homepage: 'javascript:alert(1)',
      repository: 'data:text/html,<script>alert(1)</script>',
    });
    await plugin('shorthand', { repository: 'acme/shorthand' });
    await plugin('bare', {});
    await buildRegistry({ pluginsDir: sources, outDir: join(dir, 'about-out'), name: 'about' });
    const other = await context.newPage();
    let dialogs = 0;
    other.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await other.goto(pathToFileURL(join(dir, 'about-out', 'index.html')).href);
    const linked = other.locator('#plugin-linked .about');
    await expect(linked.textContent()).resolves.toBe(
      'by Ada Lovelace · Apache-2.0 · homepage · repository',
    );
    await expect(linked.locator('a.author-link').getAttribute('href')).resolves.toBe(
      'https://ada.example/',
    );
    await expect(linked.locator('a.homepage').getAttribute('href')).resolves.toBe(
      'https://linked.example/docs?a=1&b=%222%22',
    );
    await expect(linked.locator('a.repository').getAttribute('href')).resolves.toBe(
      'https://github.com/acme/linked',
    );
    await expect(linked.locator('a').first().getAttribute('rel')).resolves.toBe(
      'noopener noreferrer nofollow',
    );
    const hostile = other.locator('#plugin-hostile-links .about');
    await expect(hostile.textContent()).resolves.toBe('by <b>Mallory</b>');
    await expect(hostile.locator('a').count()).resolves.toBe(0);
    await expect(other.locator('#plugin-hostile-links b').count()).resolves.toBe(0);
    await expect(
      other.locator('#plugin-shorthand .about a.repository').getAttribute('href'),
    ).resolves.toBe('https://github.com/acme/shorthand');
    await expect(other.locator('#plugin-bare .about').count()).resolves.toBe(0);
    await expect(
      other.locator('#plugin-bare .install code.install-plugin').textContent(),
    ).resolves.toBe('hookpm install bare@about');
    expect(dialogs).toBe(0);
    await other.close();
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
