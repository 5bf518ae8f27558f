import { describe, expect, it } from 'vitest';
import { checkPolicy } from '../../src/policy/policy.js';
import {
  describeRefusal,
  matchesPattern,
  matchesPlugin,
  pluginRefusal,
  registryRefusal,
  requiredEntry,
} from '../../src/policy/policy-rules.js';
import { policyStops } from '../../src/policy/policy-at-run.js';
import { sandboxStops } from '../../src/policy/sandbox-require.js';

describe('policy rules as data', () => {
  it.each([
    ['guard', 'guard', true],
    ['guard', 'guards', false],
    ['acme-*', 'acme-lint', true],
    ['acme-*', 'acme-', true],
    ['*-lint', 'acme-lint', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['https://plugins.acme.example/*', 'https://plugins.acme.example/index.json', true],
    ['https://plugins.acme.example/*', 'https://plugins.acme.example.evil/x', false],
  ])('A13: pattern %s against %s is %s', (pattern, text, expected) => {
    expect(matchesPattern(pattern, text)).toBe(expected);
  });

  it('A13: `name` matches in any registry, `name@registry` only there, `*@registry` every plugin of it', () => {
    const guard = { name: 'guard', registry: 'examples' };
    expect(matchesPlugin('guard', guard)).toBe(true);
    expect(matchesPlugin('guard@examples', guard)).toBe(true);
    expect(matchesPlugin('guard@acme', guard)).toBe(false);
    expect(matchesPlugin('*@examples', guard)).toBe(true);
  });

  it('A13: deny wins over allow; with allow, what no entry names is refused', () => {
    const policy = { plugins: { allow: ['guard@examples', 'acme-*@acme'], deny: ['guard'] } };
    expect(pluginRefusal(policy, { name: 'guard', registry: 'examples' })).toEqual({
      rule: 'plugins.deny',
      entry: 'guard',
    });
    expect(pluginRefusal(policy, { name: 'acme-lint', registry: 'acme' })).toBeNull();
    expect(pluginRefusal(policy, { name: 'other', registry: 'acme' })).toEqual({
      rule: 'plugins.allow',
      entry: null,
    });
    expect(pluginRefusal({}, { name: 'other', registry: 'acme' })).toBeNull();
  });

  it('A12: a registry is allowed by its name or its location', () => {
    const policy = { registries: { allow: ['examples', 'https://plugins.acme.example/*'] } };
    expect(registryRefusal(policy, { name: 'examples', location: '/x' })).toBeNull();
    expect(
      registryRefusal(policy, { name: 'acme', location: 'https://plugins.acme.example/' }),
    ).toBeNull();
    expect(registryRefusal(policy, { name: 'local', location: 'local' })).toEqual({
      rule: 'registries.allow',
      entry: null,
    });
  });

  it('A12: a name entry allows that name at any location; a location entry holds it to its host', () => {
    const byName = { registries: { allow: ['acme'] } };
    expect(registryRefusal(byName, { name: 'acme', location: 'https://evil.example/' })).toBeNull();
    const byLocation = { registries: { allow: ['https://plugins.acme.example/*'] } };
    expect(
      registryRefusal(byLocation, { name: 'acme', location: 'https://evil.example/' }),
    ).toEqual({ rule: 'registries.allow', entry: null });
  });

  it('A12: a registry URL with a user and password is matched by its location without them', () => {
    const policy = { registries: { allow: ['https://plugins.acme.example/*'] } };
    const at = (location: string) => registryRefusal(policy, { name: 'acme', location });
    expect(at('https://bob:s3cret@plugins.acme.example/')).toBeNull();
    expect(at('https://bob@plugins.acme.example/team/')).toBeNull();
    // The user part never moves the host: another host stays refused, with or without one.
    expect(at('https://plugins.acme.example@evil.example/')).not.toBeNull();
    expect(at('https://bob:pw@evil.example/plugins.acme.example/')).not.toBeNull();
  });

  it('A12: a sparse registry is matched by its base URL and its root document URL alike (registry add records the root of a base URL that has one)', () => {
    const base = 'https://plugins.acme.example/team/';
    for (const entry of [base, `${base}registry.json`]) {
      const policy = { registries: { allow: [entry] } };
      const at = (location: string) => registryRefusal(policy, { name: 'acme', location });
      expect(at(base)).toBeNull();
      expect(at(`${base}registry.json`)).toBeNull();
      expect(at('https://bob:pw@plugins.acme.example/team/registry.json')).toBeNull();
      expect(at('https://plugins.acme.example/other/registry.json')).not.toBeNull();
      expect(at('https://plugins.acme.example/team/x/registry.json')).not.toBeNull();
    }
  });

  it('A14: required names the plugins that cannot be disabled or uninstalled', () => {
    expect(
      requiredEntry({ required: ['guard@examples'] }, { name: 'guard', registry: 'examples' }),
    ).toBe('guard@examples');
    expect(
      requiredEntry({ required: ['guard@examples'] }, { name: 'guard', registry: 'local' }),
    ).toBeNull();
  });

  it.each([
    [{ plugins: { allow: 'guard' } }, 'plugins.allow must be an array'],
    [{ plugins: { allow: [''] } }, 'plugins.allow[0] must be a non-empty string'],
    [{ registry: {} }, 'unknown key "registry"'],
    [{ updates: { minimumReleaseAgeDays: -1 } }, 'minimumReleaseAgeDays'],
    [[], 'expected a JSON object'],
    [{ sandbox: { require: 'yes' } }, 'sandbox.require must be true or false'],
    [{ sandbox: { required: true } }, 'unknown key "sandbox.required"'],
    [{ sandbox: true }, 'sandbox must be an object'],
    // A13: names are lowercase; an entry that can match no plugin would deny or require nothing.
    [{ plugins: { deny: ['Format-On-Write'] } }, 'plugins.deny[0] "Format-On-Write" can match no'],
    [{ plugins: { allow: ['guard', 'guard@'] } }, 'plugins.allow[1] "guard@" can match no plugin'],
    [{ required: ['@examples'] }, 'required[0] "@examples" can match no plugin'],
    // A name or a registry name has at most 64 characters.
    [{ required: [`${'a'.repeat(65)}@examples`] }, 'required[0] "aaaa'],
    [{ plugins: { deny: [`guard@*${'e'.repeat(65)}*`] } }, 'can match no plugin'],
  ])('A11: %j cannot be used: %s', (value, problem) => {
    expect(checkPolicy(value)).toContain(problem);
  });

  it('A11, A16: a long key or entry is quoted cut short in the problem and the refusal (security.md: bounded)', () => {
    const long = 'k'.repeat(200_000);
    for (const value of [{ [long]: 1 }, { plugins: { [long]: [] } }, { sandbox: { [long]: 1 } }]) {
      const problem = checkPolicy(value)!;
      expect(problem).toContain('unknown key "');
      expect(problem.length).toBeLessThan(200);
    }
    const denied = pluginRefusal(
      { plugins: { deny: ['*'.repeat(200_000)] } },
      { name: 'guard', registry: 'x' },
    );
    expect(describeRefusal(denied!)).toMatch(/^plugins\.deny entry "\*+\.\.\."$/);
    expect(describeRefusal(denied!).length).toBeLessThan(100);
  });

  it('A11: the shape of the documented example is valid', () => {
    expect(
      checkPolicy({
        registries: { allow: ['examples', 'https://plugins.acme.example/*'] },
        plugins: {
          allow: ['guard@examples', 'acme-*@acme'],
          deny: ['format-on-write', '*@untrusted'],
        },
        required: ['guard@examples'],
        updates: { minimumReleaseAgeDays: 3 },
        sandbox: { require: true },
      }),
    ).toBeNull();
    expect(checkPolicy({ required: [`${'a'.repeat(64)}@*${'e'.repeat(64)}*`] })).toBeNull();
  });

  it('A13, A11: at run time a denied plugin is told (open), an unusable policy fails closed (not open); both enforced', () => {
    const plugins = [
      { id: 'guard@examples', name: 'guard', registry: 'examples', events: ['PreToolUse'] },
      { id: 'fmt@examples', name: 'fmt', registry: 'examples', events: ['PostToolUse'] },
    ];
    const ok = policyStops(
      { status: 'ok', file: '/p.json', from: 'env', policy: { plugins: { deny: ['fmt'] } } },
      plugins,
    );
    expect([...ok.stopped]).toEqual(['fmt@examples']);
    expect(ok.failClosed).toEqual([
      expect.objectContaining({
        plugin: 'fmt@examples',
        events: ['PostToolUse'],
        open: true,
        enforced: true,
      }),
    ]);
    const bad = policyStops(
      { status: 'invalid', file: '/p.json', from: 'env', problem: 'x' },
      plugins,
    );
    expect(bad.stopped.size).toBe(2);
    expect(bad.failClosed.every((e) => e.open === undefined && e.enforced === true)).toBe(true);
    expect(bad.failClosed[0]!.reason).toContain('/p.json');
  });

  it('A18: with sandbox.require only the unconfined plugins stop, each told (open, enforced); without it none', () => {
    const plugins = [
      {
        id: 'guard@examples',
        name: 'guard',
        registry: 'examples',
        events: ['PreToolUse'],
        confined: true,
      },
      {
        id: 'fmt@examples',
        name: 'fmt',
        registry: 'examples',
        events: ['PostToolUse'],
        confined: false,
      },
    ];
    const ok = { status: 'ok', file: '/p.json', from: 'env' } as const;
    const stops = sandboxStops({ ...ok, policy: { sandbox: { require: true } } }, plugins);
    expect([...stops.stopped]).toEqual(['fmt@examples']);
    expect(stops.failClosed).toEqual([
      expect.objectContaining({
        plugin: 'fmt@examples',
        events: ['PostToolUse'],
        open: true,
        enforced: true,
      }),
    ]);
    expect(stops.failClosed[0]!.reason).toMatch(/\/p\.json requires confined plugins.*--confine/);
    expect(
      sandboxStops({ ...ok, policy: { sandbox: { require: false } } }, plugins).stopped.size,
    ).toBe(0);
    expect(sandboxStops({ ...ok, policy: {} }, plugins).stopped.size).toBe(0);
  });
});
