import { describe, expect, it } from 'vitest';
import { formatTestReport } from '../../src/cli/render/render-test.js';
import type { TestPluginReport } from '../../src/ops/test/test-plugin.js';
import type { DispatchResult } from '../../src/engine/types.js';
import { neutralResult } from '../helpers/neutral-result.js';

/** A report of one handler's run; `plugin` and `version` as an invalid manifest may give them. */
function report(plugin: string, version: string, handler: string): TestPluginReport {
  return {
    plugin,
    version,
    kind: 'directory',
    event: 'PreToolUse',
    dataDir: null,
    handlers: [
      {
        handler,
        command: 'true',
        exitCode: 0,
        signal: null,
        ms: 1,
        timedOut: false,
        failed: false,
        decision: null,
        stdout: '',
        stderr: '',
      },
    ],
    failed: false,
    invalid: true,
    result: neutralResult('PreToolUse', 'snap') as unknown as DispatchResult,
    diagnostics: [],
  };
}

describe('formatTestReport (hookpm test)', () => {
  it('cli.md conventions: an invalid name, version or handler id is escaped, never printed raw', () => {
    const text = formatTestReport(
      report('p\u001b[31m@local', '1.0.0\u001b]52;c;eA==\u0007', 'h\r\u202e'),
    );
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(text).toContain('p\\u001b[31m@local 1.0.0\\u001b]52;c;eA==\\u0007 (directory)');
    expect(text).toContain('  h\\r\\u202e  exit 0');
  });

  it('cli.md conventions: a long name or version is cut, never printed whole', () => {
    const text = formatTestReport(report('n'.repeat(100_000), 'v'.repeat(100_000), 'h'));
    expect(text.length).toBeLessThan(2000);
    expect(text).toContain(`${'n'.repeat(200)}... ${'v'.repeat(200)}...`);
  });

  it('cli.md conventions: the runs table cuts the id of a plugin whose invalid name is long', () => {
    const long = `${'n'.repeat(100_000)}@local`;
    const result = {
      ...neutralResult('PreToolUse', 'snap'),
      runs: [
        {
          handler: 'PreToolUse:0:0',
          origin: 'plugin',
          plugin: long,
          exitCode: 0,
          timedOut: false,
          durationMs: 1,
        },
      ],
    } as unknown as DispatchResult;
    const text = formatTestReport({ ...report('p', '1.0.0', 'h'), result });
    expect(text.length).toBeLessThan(2000);
    expect(text).toContain(`plugin ${'n'.repeat(200)}...`);
  });
});
