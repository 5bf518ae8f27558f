import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { boldHeader, colourEnabled } from '../../src/cli/render/colour.js';
import { createIndexProgress } from '../../src/cli/progress/index-progress.js';

function stream(isTTY: boolean): { out: NodeJS.WriteStream; text: () => string } {
  const pass = new PassThrough();
  let text = '';
  pass.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { out: Object.assign(pass, { isTTY }) as unknown as NodeJS.WriteStream, text: () => text };
}

const saved = process.env.NO_COLOR;
afterEach(() => {
  if (saved === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = saved;
});

describe('cli.md section 1: progress and colour only on a TTY', () => {
  it('index download progress is drawn on a TTY stream and cleared when done', async () => {
    const { out, text } = stream(true);
    const progress = createIndexProgress(out);
    progress.onProgress?.({ kind: 'index', registry: 'acme', received: 1024, total: 4096 });
    progress.onProgress?.({ kind: 'index', registry: 'acme', received: 4096, total: 4096 });
    progress.done();
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toContain('fetching the index of acme: 1.0 KiB / 4.0 KiB');
    expect(text()).toContain('4.0 KiB / 4.0 KiB');
    expect(text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it('off a TTY there is no progress callback and nothing is written', async () => {
    const { out, text } = stream(false);
    const progress = createIndexProgress(out);
    expect(progress.onProgress).toBeUndefined();
    progress.done();
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toBe('');
  });

  it('colour needs a TTY and no NO_COLOR', () => {
    delete process.env.NO_COLOR;
    expect(colourEnabled({ isTTY: true })).toBe(true);
    expect(colourEnabled({ isTTY: false })).toBe(false);
    process.env.NO_COLOR = '1';
    expect(colourEnabled({ isTTY: true })).toBe(false);
    expect(boldHeader('A  B\nx  y', false)).toBe('A  B\nx  y');
    expect(boldHeader('A  B\nx  y', true)).toBe('\u001b[1mA  B\u001b[22m\nx  y');
  });
});
