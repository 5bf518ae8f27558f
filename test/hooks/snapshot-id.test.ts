import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/json/canonical-json.js';
import {
  effectiveConfigJson,
  snapshotId,
  type EffectiveConfig,
} from '../../src/hooks/snapshot/snapshot-id.js';

const config: EffectiveConfig = {
  sources: [
    { origin: 'user', plugin: null, env: null },
    {
      origin: 'plugin',
      plugin: 'g@r',
      env: {
        PLUGIN_ROOT: '/r',
        CLAUDE_PLUGIN_ROOT: '/r',
        PLUGIN_DATA: '/d',
        CLAUDE_PLUGIN_DATA: '/d',
      },
    },
  ],
  events: [
    {
      event: 'SessionEnd',
      groups: [
        {
          source: 0,
          group: {
            matcher: null,
            hooks: [
              {
                type: 'command',
                command: 'x',
                timeout: 6,
                legacyStdin: { event: 'session.end', '10': 1, '9': 2 },
              },
            ],
          },
        },
      ],
    },
    {
      event: 'PreToolUse',
      groups: [
        { source: 0, group: null },
        {
          source: 1,
          group: {
            matcher: 'Bash|Edit',
            hooks: [
              null,
              {
                type: 'command',
                command: 'run "quoted"\n',
                argv: ['a', 'b'],
                if: 'Bash(git *)',
                statusMessage: 's',
                timeout: 1.5,
              },
              { type: 'command', command: 'echo $RANDOM', shell: 'bash' },
            ],
          },
        },
      ],
    },
  ],
};

describe('snapshot id', () => {
  it('R3: shell "bash" is part of the configuration, so it changes the id', () => {
    const bash = config.events[1]!.groups[1]!.group!.hooks[2]!;
    const withoutShell = structuredClone(config);
    const { shell: _dropped, ...plain } = bash;
    (withoutShell.events[1]!.groups[1]!.group!.hooks as unknown[])[2] = plain;
    expect(snapshotId(withoutShell)).not.toBe(snapshotId(config));
  });

  it('R3: the fast effective-configuration text is exactly its canonical JSON', () => {
    expect(effectiveConfigJson(config)).toBe(canonicalJson(config));
    expect(snapshotId(config)).toBe(sha256Hex(canonicalJson(config)));
  });

  it('R3: a source environment other than the four plugin variables is written canonically too', () => {
    const other: EffectiveConfig = {
      sources: [
        { origin: 'plugin', plugin: 'o@r', env: { PLUGIN_ROOT: '/r', B: '2', '10': 'x', A: '1' } },
      ],
      events: [],
    };
    expect(effectiveConfigJson(other)).toBe(canonicalJson(other));
  });

  it('R3: integer-like keys of a legacy stdin are sorted as text, like every other key', () => {
    expect(effectiveConfigJson(config)).toContain(
      '"legacyStdin":{"10":1,"9":2,"event":"session.end"}',
    );
  });
});
