import { describe, expect, it } from 'vitest';
import { resolveGlobals } from '../../src/cli/global-options.js';
import {
  consentEnableMode,
  createOperationContext,
  enableModeOf,
} from '../../src/cli/operation-context.js';
import { requireNetwork } from '../../src/ops/steps/context/network.js';
import { consentModeOf } from '../../src/ops/steps/context/operation-context.js';
import { isHookpmError } from '../../src/errors.js';

// Under the test runner stdin is not a terminal, so no question can be asked.
describe('cli.md section 1: one operation context per command, from the global options', () => {
  it('--offline and --cwd land in the context once; the store follows --home', () => {
    const globals = resolveGlobals({ offline: true, cwd: '/tmp', home: '/tmp/h' });
    const { ctx } = createOperationContext(globals);
    expect(ctx).toMatchObject({ offline: true, cwd: '/tmp' });
    expect(ctx.paths.data.startsWith('/tmp/h')).toBe(true);
  });

  it('--yes is consent mode `yes` (every question answered); without a TTY it is `none`, with no confirm', () => {
    const yes = createOperationContext(resolveGlobals({ yes: true })).ctx;
    expect(consentModeOf(yes)).toBe('yes');
    expect(enableModeOf(yes, true)).toBe('yes');
    expect(enableModeOf(yes, false)).toBe('no');
    const none = createOperationContext(resolveGlobals({})).ctx;
    expect(consentModeOf(none)).toBe('none');
    expect(none.confirm).toBeUndefined();
    expect(consentEnableMode(none)).toBe('ask');
  });

  it('D5: requireNetwork is E_OFFLINE naming --offline in an offline context, and nothing online', () => {
    expect(() => requireNetwork({ offline: false }, 'fetch x')).not.toThrow();
    let caught: unknown;
    try {
      requireNetwork({ offline: true }, 'cannot download https://example.test/x.tgz');
    } catch (error) {
      caught = error;
    }
    expect(isHookpmError(caught, 'E_OFFLINE')).toBe(true);
    expect((caught as Error).message).toBe('--offline: cannot download https://example.test/x.tgz');
  });
});
