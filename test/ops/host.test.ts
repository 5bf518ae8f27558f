import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DispatchRecord } from '../../src/engine/dispatch-options.js';
import { openHost } from '../../src/ops/steps/host/host.js';
import { dispatchLogFiles } from '../../src/store/dispatch-log.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { settingsFile } from '../../src/store/user-settings.js';
import { group, makeTempDir, printsJson, removeDir, sh, userSnapshot } from './dispatch-helpers.js';

let dir: string;
let store: StorePaths;

beforeEach(() => {
  dir = makeTempDir('host');
  store = resolveStorePaths({ HOOKPM_HOME: join(dir, 'home') });
});
afterEach(() => removeDir(dir));

function writeSettings(value: unknown): void {
  mkdirSync(store.config, { recursive: true });
  writeFileSync(settingsFile(store), JSON.stringify(value));
}

function logLines(): Record<string, unknown>[] {
  const text = readFileSync(dispatchLogFiles(store).current, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('openHost: one composition of snapshot, settings, decision log and dispatch', () => {
  it('X5 env.pass of settings.json reaches the handlers, and the dispatch is logged under the host source', async () => {
    writeSettings({ env: { pass: ['HOST_TEST_TOKEN'] } });
    const snapshot = userSnapshot(dir, {
      UserPromptSubmit: [group(null, sh('printf "%s" "$HOST_TEST_TOKEN"'))],
    });
    const host = openHost({ snapshot, store, source: 'run' });
    const result = await host.dispatch(
      'UserPromptSubmit',
      { prompt: 'hi' },
      {
        env: { HOST_TEST_TOKEN: 'kept', PATH: process.env.PATH },
      },
    );
    expect(result.context).toEqual(['kept']);
    const lines = logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]!['source']).toBe('run');
  });

  it('a caller sink is called with the record as well as the decision log, with each run decision from the one parse', async () => {
    const deny = printsJson({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    const snapshot = userSnapshot(dir, { PreToolUse: [group(null, sh(deny))] });
    const host = openHost({ snapshot, store, source: 'session' });
    const seen: DispatchRecord[] = [];
    await host.dispatch(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: {} },
      {
        log: (record) => seen.push(record),
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.decisions).toEqual(['deny']);
    expect(logLines()).toHaveLength(1);
  });

  // docs/guides/decision-log.md: each run's decision is read from its output the way the dispatch's
  // is (engine.md section 1, M5): a block on PreToolUse is a deny, whatever allow sits beside it.
  it('a run whose output blocks beside an allow is logged as the deny it reduces to, on PreToolUse and PermissionRequest', async () => {
    const outputs = {
      PreToolUse: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
      PermissionRequest: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    };
    for (const [event, specific] of Object.entries(outputs)) {
      const both = printsJson({ decision: 'block', reason: 'no', hookSpecificOutput: specific });
      const snapshot = userSnapshot(dir, { [event]: [group(null, sh(both))] });
      const host = openHost({ snapshot, store, source: 'session' });
      const seen: DispatchRecord[] = [];
      const result = await host.dispatch(
        event as 'PreToolUse' | 'PermissionRequest',
        { tool_name: 'Bash', tool_input: {} },
        { log: (record) => seen.push(record) },
      );
      expect(result.permission?.decision, event).toBe('deny');
      expect(seen[0]!.decisions, event).toEqual(['deny']);
    }
  });

  it("source null logs nothing whatever the settings say, and settings diagnostics are the host's to report", async () => {
    writeSettings('not an object');
    const snapshot = userSnapshot(dir, { Stop: [group(null, sh('true'))] });
    const host = openHost({ snapshot, store, source: null });
    await host.dispatch('Stop', {});
    expect(() => readFileSync(dispatchLogFiles(store).current)).toThrow();
    expect(host.settingsDiagnostics.map((d) => d.code)).toEqual(['config_read_failed']);
  });
});
