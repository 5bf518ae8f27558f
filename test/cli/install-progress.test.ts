import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { createInstallProgress } from '../../src/cli/progress/install-progress.js';
import { displayWidth } from '../../src/cli/render/width.js';

/** A real stream standing in for stderr, with the isTTY flag a terminal has. */
function terminal(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  Object.assign(stream, { isTTY, columns: 60 });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('install progress (cli.md section 1)', () => {
  it('cli.md: progress is drawn on stderr only on a TTY: one line rewritten in place, cleared at the end', async () => {
    const tty = terminal(true);
    const view = createInstallProgress(tty.stream);
    view.onProgress?.({ kind: 'download', plugin: 'guard', received: 2048, total: 4096 });
    view.onProgress?.({ kind: 'staged', plugin: 'guard@acme', done: 3, total: 3 });
    view.done();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tty.text()).toContain('\r\u001b[2Kdownloading guard: 2.0 KiB / 4.0 KiB');
    expect(tty.text()).toContain('staged 3/3: guard@acme');
    expect(tty.text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it('cli.md: without a TTY there is no progress at all', () => {
    const pipe = terminal(false);
    const view = createInstallProgress(pipe.stream);
    expect(view.onProgress).toBeUndefined();
    view.done();
    expect(pipe.text()).toBe('');
  });

  it('cli.md: plugin-supplied names are printed with control characters escaped', async () => {
    const tty = terminal(true);
    createInstallProgress(tty.stream).onProgress?.({
      kind: 'staged',
      plugin: 'evil\u001b[2J',
      done: 1,
      total: 2,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(tty.text()).toContain('evil\\u001b[2J');
  });

  it('cli.md: a single plugin staged is not a bulk install and draws nothing', async () => {
    const tty = terminal(true);
    const view = createInstallProgress(tty.stream);
    view.onProgress?.({ kind: 'staged', plugin: 'guard@acme', done: 1, total: 1 });
    view.done();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tty.text()).toBe('');
  });
});

describe('the progress line fits its terminal', () => {
  it('a name of wide characters is cut by display width, so the line never wraps and one clear erases it', async () => {
    const tty = terminal(true); // 60 columns
    createInstallProgress(tty.stream).onProgress?.({
      kind: 'download',
      plugin: '日本語'.repeat(20),
      received: 10,
      total: null,
    });
    await new Promise((resolve) => setImmediate(resolve));
    const drawn = tty.text().replace('\r\u001b[2K', '');
    expect(drawn.endsWith('…')).toBe(true);
    expect(displayWidth(drawn)).toBeLessThanOrEqual(59);
  });
});

describe('the lock-wait notice and the progress line', () => {
  it('a lock-wait notice clears a drawn download line first, so it never runs into it', () => {
    ensureBuilt();
    const dist = (path: string): string => new URL(`../../dist/${path}`, import.meta.url).href;
    // A real process writing to its real stderr (a pipe here; the line is drawn as on a TTY): the
    // CLI's notice printer and progress line as bin/hookpm.js sets them up.
    const script = [
      `import { createProgressLine } from ${JSON.stringify(dist('cli/progress/progress-line.js'))};`,
      `import { watchLockWaits } from ${JSON.stringify(dist('cli/lock-wait-notice.js'))};`,
      `import { notifyLockWait } from ${JSON.stringify(dist('io/lock-wait.js'))};`,
      'watchLockWaits();',
      'const line = createProgressLine(process.stderr);',
      "line.draw('downloading guard: 2.0 KiB / 2.0 KiB', true);",
      "notifyLockWait({ lockPath: '/tmp/store.lock', holder: null, waitedMs: 1000 });",
      'line.clear();',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toBe(
      '\r\u001b[2Kdownloading guard: 2.0 KiB / 2.0 KiB' +
        '\r\u001b[2K' +
        'hookpm: waiting for an unknown process to release the lock /tmp/store.lock\n',
    );
  });
});
