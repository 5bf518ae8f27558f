import { describe, expect, it } from 'vitest';
import { formatDispatchResult } from '../../src/cli/render/render-dispatch.js';
import type { DispatchResult } from '../../src/engine/types.js';

describe('formatDispatchResult', () => {
  it('C1: a result of 200,000 diagnostics (a file of as many invalid handlers) is one line each', () => {
    const diagnostics = Array.from({ length: 200_000 }, (_, i) => ({
      severity: 'warning',
      code: 'invalid_config',
      message: `handler ${i}`,
    }));
    const result = {
      event: 'Stop',
      snapshotId: 'x',
      continue: true,
      stopReason: null,
      continueLoop: false,
      suppressOriginalPrompt: false,
      systemMessages: [],
      context: [],
      feedback: [],
      diagnostics,
      runs: [],
    } as unknown as DispatchResult;
    const text = formatDispatchResult(result);
    expect(text).toContain('invalid_config: handler 199999');
  });
});
