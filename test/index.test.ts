import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as hookpm from '../src/index.js';
import { group, printsJson, sh } from './helpers/hook-fixtures.js';
import { useTempDir } from './helpers/temp-dir.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../src/hooks/events.js';
import { stateFile } from '../src/store/home-paths.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const IMPORT =
  /(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module src/index.ts loads, statically or lazily: relative files and bare packages. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of text.matchAll(IMPORT)) {
      if (/^\s*(import|export)\s+type\s/.test(m[0])) continue;
      const spec = (m[1] ?? m[2]) as string;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

const tmp = useTempDir('index');

describe('src/index.ts, the library for hosts', () => {
  it('exports the engine: buildSnapshot, matchHandlers, dispatchEvent, the loaders, parseHooksDocument, EVENTS, HookpmError', () => {
    for (const name of [
      'buildSnapshot',
      'matchHandlers',
      'dispatchEvent',
      'loadSnapshot',
      'loadTrustedSnapshot',
      'parseHooksDocument',
      'describeSnapshot',
      'installExitCleanup',
    ]) {
      expect(typeof (hookpm as Record<string, unknown>)[name]).toBe('function');
    }
    expect(hookpm.EVENT_NAMES).toHaveLength(12);
    // plugins.md G1: the table holds Claude Code's own events after the engine's twelve.
    expect(Object.keys(hookpm.EVENTS)).toEqual([...hookpm.EVENT_NAMES, ...CLAUDE_CODE_EVENT_NAMES]);
    expect(new hookpm.HookpmError('E_USAGE', 'x').code).toBe('E_USAGE');
  });

  it('loads no command-line code: nothing it imports reaches commander or src/cli/', () => {
    const { files, packages } = importGraph(join(SRC, 'index.ts'));
    expect(files.size).toBeGreaterThan(10);
    expect([...packages].filter((p) => p === 'commander' || p.startsWith('commander/'))).toEqual(
      [],
    );
    expect([...files].filter((f) => f.startsWith(join(SRC, 'cli')))).toEqual([]);
  });

  it('cli.md 3: a host loads the snapshot of a directory and dispatches on it', async () => {
    const home = join(tmp.dir, 'home');
    const project = join(tmp.dir, 'project');
    await mkdir(join(home, '.deepagents'), { recursive: true });
    await mkdir(join(project, '.git'), { recursive: true });
    const hooks = {
      PreToolUse: [
        group(
          'Bash',
          sh(
            printsJson({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'no',
              },
            }),
          ),
        ),
      ],
    };
    await writeFile(join(home, '.deepagents', 'hooks.json'), JSON.stringify({ hooks }));
    const { snapshot } = await hookpm.loadTrustedSnapshot({ cwd: project, home, flag: false });
    expect(snapshot.handlers.map((h) => h.id)).toEqual(['PreToolUse:0:0']);
    const result = await hookpm.dispatchEvent(
      snapshot,
      'PreToolUse',
      { tool_name: 'Bash' },
      { cwd: project },
    );
    expect(result.permission).toEqual({ decision: 'deny', reason: 'no', interrupt: false });
    expect(result.snapshotId).toBe(snapshot.id);
  });

  // docs/guides/embedding.md "one event at a time": the load's failClosed goes to dispatchEvent.
  it('engine.md B3: the one-event pattern of the guide denies when the plugin state cannot be read, where the snapshot alone has no guard to run', async () => {
    const home = join(tmp.dir, 'home-b3');
    const project = join(tmp.dir, 'project-b3');
    await mkdir(join(project, '.git'), { recursive: true });
    const store = hookpm.resolveStorePaths({ HOOKPM_HOME: join(home, 'hookpm') });
    await mkdir(dirname(stateFile(store)), { recursive: true });
    await writeFile(stateFile(store), '{"version": 1, "plugins": {');
    const loaded = await hookpm.loadTrustedSnapshot({ cwd: project, home, flag: false, store });
    const input = { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    const bare = await hookpm.dispatchEvent(loaded.snapshot, 'PreToolUse', input);
    expect(bare.permission).toBeNull();
    const { snapshot, failClosed } = loaded;
    const result = await hookpm.dispatchEvent(snapshot, 'PreToolUse', input, { failClosed });
    expect(result.permission).toMatchObject({ decision: 'deny' });
    expect(result.permission?.reason).toMatch(/^hookpm fails closed: /);
    const guide = readFileSync(join(SRC, '..', 'docs', 'guides', 'embedding.md'), 'utf8');
    const oneEvent = guide.slice(guide.indexOf('## The library: one event at a time'));
    expect(oneEvent).toContain('const { snapshot, failClosed } = await loadTrustedSnapshot(');
    expect(oneEvent).toMatch(/dispatchEvent\(\s*snapshot,[^;]*\{ failClosed \}/);
  });
});
