/**
 * The consent covers where a hook runs, with the built binary against a registry on 127.0.0.1:
 * a handler consented to as a background one (`async: true`, plugins.md G3), inert in hookpm's
 * engine, that an update makes an ordinary handler (which then runs, and may deny, everywhere)
 * waits for consent like a changed hook.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { publishTree } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-consent-background-e2e-');
const { hookpm, ok } = ctx;
beforeEach(async () => {
  await ok('registry', 'add', 'acme', ctx.acme.url);
});

const DENY = { type: 'command', command: 'cat >/dev/null; echo "denied by guard" >&2; exit 2' };

function guard(version: string, handler: Record<string, unknown>) {
  return {
    '.claude-plugin/plugin.json': { json: { name: 'guard', version } },
    'hooks/hooks.json': {
      json: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [handler] }] } },
    },
  };
}

/** What `hookpm run PreToolUse` decides for a Bash command: the deny reason, or null. */
async function decide(): Promise<string | null> {
  const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
  const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], payload);
  expect(run.code, run.stderr).toBe(0);
  return (
    (JSON.parse(run.stdout) as { permission: { reason: string } | null }).permission?.reason ?? null
  );
}

describe('the consent covers where a hook runs', () => {
  it('Q5, G3: an update dropping `async: true` from a consented handler waits for consent (E_CONSENT_REQUIRED headless) and the review shows the hook changed', async () => {
    await publishTree(ctx.acme, 'guard', '1.0.0', guard('1.0.0', { ...DENY, async: true }));
    await ok('install', 'guard@acme', '--yes');
    expect(await decide()).toBeNull();

    await publishTree(ctx.acme, 'guard', '1.1.0', guard('1.1.0', DENY));
    const waiting = await hookpm(['update', '--json']);
    expect(JSON.parse(waiting.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
    expect(await decide()).toBeNull();
    const review = (await ok('review', 'guard')).stdout;
    expect(review).toContain('changes since consent (0 added, 0 removed, 1 changed)');

    await ok('update', '--yes');
    expect(await decide()).toBe('denied by guard');
  });
});
