import { describe, expect, it } from 'vitest';
import { formatReloaded } from '../../src/cli/render/render-link.js';

describe('formatReloaded (hookpm reload)', () => {
  it("cli.md conventions: a session id from an agent's payload is escaped and cut, never printed whole", () => {
    const sessionId = `s\u001b[31m${'s'.repeat(300_000)}`;
    const text = formatReloaded([
      {
        sessionId,
        agent: 'claude',
        snapshotId: 'a'.repeat(64),
        handlers: 0,
        plugins: [],
        diagnostics: [],
      },
    ]);
    expect(text.length).toBeLessThan(1000);
    expect(text).toContain(`session s\\u001b[31m${'s'.repeat(194)}...:`);
  });
});
