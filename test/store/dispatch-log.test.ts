import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../helpers/built-bin.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendDispatchLine,
  dispatchLogFiles,
  LOG_LINE_MAX_BYTES,
  LOG_READ_MAX_BYTES,
  readDispatchLogSince,
} from '../../src/store/dispatch-log.js';
import { homeStorePaths } from '../../src/store/home-paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import {
  formatDispatchLine,
  SESSION_MAX_CHARS,
} from '../../src/ops/steps/decision-log/dispatch-line.js';
import { parseLogText } from '../../src/ops/steps/decision-log/read-log.js';
import { percentile } from '../../src/ops/steps/decision-log/hook-stats.js';
import type { DispatchRecord } from '../../src/engine/dispatch-options.js';
import { noDecision } from '../../src/engine/no-decision.js';
import type { HandlerRun } from '../../src/engine/types.js';

let root: string;
let paths: StorePaths;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookpm-dlog-unit-'));
  paths = homeStorePaths(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const read = (file: string) => readFileSync(file, 'utf8');

describe('appendDispatchLine', () => {
  it('makes <data>/log, appends whole lines, rotates to dispatch.1.jsonl past the cap', () => {
    const { current, previous } = dispatchLogFiles(paths);
    const line = (i: number) => JSON.stringify({ i, pad: 'p'.repeat(80) });
    for (let i = 0; i < 30; i += 1) expect(appendDispatchLine(paths, line(i), 1000)).toBe(true);
    const lines = [...read(previous).split('\n'), ...read(current).split('\n')].filter(Boolean);
    // One older generation is kept: the last lines, in order, with nothing cut.
    const kept = lines.map((l) => JSON.parse(l).i);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => 30 - kept.length + k));
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(Buffer.byteLength(read(current))).toBeLessThanOrEqual(1000);
    expect(Buffer.byteLength(read(previous))).toBeLessThanOrEqual(1000);
  });

  it('a write error (ENOSPC on /dev/full, an unwritable directory, a FIFO) returns false and never throws', () => {
    const full = homeStorePaths(join(root, 'full'));
    const { current } = dispatchLogFiles(full);
    mkdirSync(join(current, '..'), { recursive: true });
    symlinkSync('/dev/full', current);
    expect(appendDispatchLine(full, '{"a":1}')).toBe(false);
    const blocked = homeStorePaths(join(root, 'blocked'));
    mkdirSync(blocked.data, { recursive: true });
    writeFileSync(join(blocked.data, 'log'), 'a file where the directory should be');
    expect(appendDispatchLine(blocked, '{"a":1}')).toBe(false);
    const fifo = homeStorePaths(join(root, 'fifo'));
    mkdirSync(join(fifo.data, 'log'), { recursive: true });
    expect(spawnSync('mkfifo', [dispatchLogFiles(fifo).current]).status).toBe(0);
    expect(appendDispatchLine(fifo, '{"a":1}')).toBe(false); // a FIFO nobody reads never hangs it
  });

  it('readDispatchLogSince follows across a rotation and leaves an unfinished line for later', () => {
    const { current } = dispatchLogFiles(paths);
    appendDispatchLine(paths, '{"n":0}', 40);
    let position = readDispatchLogSince(paths, null).position;
    const seen: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      appendDispatchLine(paths, `{"n":${i}}`, 40);
      const next = readDispatchLogSince(paths, position);
      position = next.position;
      for (const l of next.text.split('\n').filter(Boolean)) seen.push(JSON.parse(l).n);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    appendFileSync(current, '{"n":7');
    expect(readDispatchLogSince(paths, position).text).toBe('');
    appendFileSync(current, '}\n');
    expect(readDispatchLogSince(paths, position).text).toBe('{"n":7}\n');
  });

  it('D7: readDispatchLogSince passes over a line longer than it reads at once, and follows the lines after it', () => {
    const { current } = dispatchLogFiles(paths);
    appendDispatchLine(paths, '{"n":0}');
    let position = readDispatchLogSince(paths, null).position;
    // A sparse file: LOG_READ_MAX_BYTES and more of NUL bytes, no newline, put there by hand.
    truncateSync(current, statSync(current).size + LOG_READ_MAX_BYTES + 5);
    appendFileSync(current, '\n{"n":1}\n');
    let text = '';
    for (let i = 0; i < 3; i += 1) {
      const next = readDispatchLogSince(paths, position);
      position = next.position;
      text += next.text;
    }
    // The rest of the long line, then the line after it.
    expect(text).toBe(`${'\u0000'.repeat(5)}\n{"n":1}\n`);
  });

  it('lines from concurrent worker processes never interleave', async () => {
    ensureBuilt();
    const writer = fileURLToPath(new URL('./dispatch-log-writer.mjs', import.meta.url));
    const workers = Array.from(
      { length: 4 },
      (_, w) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, [writer, root, String(w)], { stdio: 'ignore' });
          child.on('close', resolve);
        }),
    );
    const codes = await Promise.all(workers);
    expect(codes).toEqual([0, 0, 0, 0]);
    const text = read(dispatchLogFiles(paths).current);
    const { entries, damaged } = parseLogText(text);
    expect(damaged).toBe(0);
    expect(entries).toHaveLength(4 * 500);
  }, 180_000); // ensureBuilt may rebuild dist/ first
});

function run(i: number, stdout = ''): HandlerRun {
  return {
    handler: {
      id: `PreToolUse:${i}:0`,
      event: 'PreToolUse',
      groupIndex: i,
      handlerIndex: 0,
      origin: 'plugin',
      plugin: `plugin-number-${i}@local`,
      source: 'hooks/hooks.json',
      matcher: null,
      if: null,
      command: 'true',
      argv: null,
      timeoutSec: 60,
      statusMessage: null,
      env: {},
      legacyStdin: null,
    } as unknown as HandlerRun['handler'],
    exitCode: 0,
    signal: null,
    stdout,
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    failure: null,
    durationMs: 1.234,
  };
}

function record(runs: HandlerRun[], payload: Record<string, unknown> = {}): DispatchRecord {
  return {
    event: 'PreToolUse',
    startedAt: Date.parse('2026-01-01T00:00:00Z'),
    sessionId: 's',
    payload,
    runs,
    decisions: runs.map(() => null),
    result: noDecision('PreToolUse', 'a'.repeat(64)),
  };
}

describe('formatDispatchLine', () => {
  it('a line stays under PIPE_BUF: text is cut, then left out, and runs past the limit are counted', () => {
    const big = 'z'.repeat(50_000);
    const withText = formatDispatchLine(record([run(0, big)], { big }), {
      source: 'run',
      text: true,
    });
    expect(Buffer.byteLength(withText)).toBeLessThanOrEqual(LOG_LINE_MAX_BYTES);
    expect(JSON.parse(withText).runs[0].stdout.length).toBeLessThanOrEqual(1001);
    const many = Array.from({ length: 200 }, (_, i) => run(i));
    const line = JSON.parse(formatDispatchLine(record(many), { source: 'run', text: false }));
    expect(Buffer.byteLength(JSON.stringify(line))).toBeLessThanOrEqual(LOG_LINE_MAX_BYTES);
    expect(line.runs.length + line.runsOmitted).toBe(200);
    expect(line.runs.length).toBeGreaterThan(10);
  });

  it('a line stays under PIPE_BUF whatever session id the payload gave: a long one is cut', () => {
    const long = { ...record([run(0)]), sessionId: '\u0000'.repeat(1_000_000) };
    for (const text of [false, true]) {
      const line = formatDispatchLine(long, { source: 'session', text });
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LOG_LINE_MAX_BYTES);
      const { session, runs } = JSON.parse(line) as { session: string; runs: unknown[] };
      expect(session).toBe(`${'\u0000'.repeat(SESSION_MAX_CHARS)}…`);
      expect(runs).toHaveLength(1);
    }
    const uuid = '37604bfe-0c1d-4b8e-9a51-3f1f7b6f2b10';
    const short = formatDispatchLine(
      { ...record([]), sessionId: uuid },
      { source: 'run', text: false },
    );
    expect(JSON.parse(short).session).toBe(uuid);
  });

  it('D7: a reader skips and counts lines that are not whole entries (a line a full disk cut)', () => {
    const whole = formatDispatchLine(record([run(0)]), { source: 'run', text: false });
    const text = `${whole}\n${whole.slice(0, 40)}\n[1]\n{"v":2,"runs":[]}\n${whole}\n`;
    const { entries, damaged } = parseLogText(text);
    expect(entries).toHaveLength(2);
    expect(damaged).toBe(3);
  });

  it('p50 and p95 are nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(10);
    expect(percentile(sorted, 0.95)).toBe(19);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });
});
