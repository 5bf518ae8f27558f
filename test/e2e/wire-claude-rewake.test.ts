import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

// plugins.md G11: `asyncRewake: true` without `async: true` is an ordinary handler inside Claude
// Code too (Claude Code 2.1.332 runs such a handler in the foreground and waits for it, measured
// in the corpus comparison), so `hookpm link claude` gives it no background entry and `hookpm wire
// claude` runs it with the event, its exit 2 blocking as any handler's does.

const ws = useBinWorkspace('e2e-wire-claude-rewake', '.claude');

describe('asyncRewake without async inside Claude Code (plugins.md G11)', () => {
  it('G11: review says it runs where any handler does, link claude writes no background entry for it, and wire claude runs it with the event (its exit 2 blocks the Stop)', async () => {
    const root = await writeClaudePlugin(join(ws.dir, 'plugins', 'review'), 'review', {
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command: "echo 'found a leaked key' >&2; exit 2",
              asyncRewake: true,
              rewakeMessage: 'Background review:',
            },
          ],
        },
      ],
    });
    expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
    const review = JSON.parse((await ws.hookpm(['review', 'review', '--json'])).stdout) as {
      hooks: { event: string; runsIn?: string }[];
    };
    expect(review.hooks.map((h) => [h.event, h.runsIn])).toEqual([['Stop', undefined]]);
    expect((await ws.hookpm(['link', 'claude'])).code).toBe(0);
    const settings = JSON.parse(await readFile(join(ws.home, '.claude', 'settings.json'), 'utf8'));
    const stop = (settings as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> })
      .hooks['Stop']!;
    expect(stop).toHaveLength(1);
    expect(stop[0]!.hooks[0]).not.toHaveProperty('async');
    const payload = JSON.stringify({
      session_id: 's-1',
      transcript_path: join(ws.home, 't.jsonl'),
      cwd: ws.repo,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    const run = await ws.hookpm(['wire', 'claude'], { stdin: payload });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ decision: 'block', reason: 'found a leaked key' });
  });
});
