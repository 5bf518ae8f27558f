import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/plugin/manifest.js';

const FILE = '.claude-plugin/plugin.json';

function errors(value: unknown) {
  return parseManifest(value, FILE).diagnostics.filter((d) => d.severity === 'error');
}

describe('parseManifest', () => {
  it('P2: the used fields are read as given', () => {
    const value = {
      name: 'guard',
      version: '1.2.3-beta.1',
      description: 'Blocks rm -rf',
      author: { name: 'Ann', email: 'ann@example.org', url: 'https://example.org' },
      homepage: 'https://example.org/guard',
      repository: { type: 'git', url: 'https://example.org/guard.git' },
      license: 'MIT',
      keywords: ['safety'],
      hooks: './extra.json',
    };
    const parsed = parseManifest(value, FILE);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.manifest).toEqual(value);
  });

  it('P2: author may be a string, repository a string and hooks an array or an object', () => {
    for (const extra of [
      { author: 'Ann <ann@example.org>', repository: 'https://example.org/x' },
      { hooks: ['./a.json', './b.json'] },
      { hooks: { Stop: [] } },
    ]) {
      expect(errors({ name: 'x', ...extra })).toEqual([]);
    }
  });

  it('P2: unknown fields are kept and reported as warnings, never errors', () => {
    const parsed = parseManifest(
      { name: 'x', skills: './skills', mcpServers: {}, $schema: 'u' },
      FILE,
    );
    expect(parsed.manifest).toMatchObject({ skills: './skills', mcpServers: {}, $schema: 'u' });
    expect(parsed.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['unknown_key', 'warning', `${FILE}:skills`],
      ['unknown_key', 'warning', `${FILE}:mcpServers`],
      ['unknown_key', 'warning', `${FILE}:$schema`],
    ]);
  });

  it('P2: an unknown field of any length is quoted cut in the warning, never whole', () => {
    const key = 'f'.repeat(100_000);
    const [warning] = parseManifest({ name: 'guard', [key]: 1 }, FILE).diagnostics;
    const path = `${FILE}:[${JSON.stringify(`${'f'.repeat(200)}...`)}]`;
    expect(warning).toMatchObject({ code: 'unknown_key', path });
    expect(warning!.message).toContain(`field "${'f'.repeat(200)}..." is not used by hookpm`);
    expect(warning!.message.length).toBeLessThan(1000);
  });

  it.each([
    [{ name: 1 }, 'name', 'must be a string, found 1'],
    [{ name: 'x', hooks: 5 }, 'hooks', 'found 5'],
    [{ name: 'x', version: 'one' }, 'version', 'semver'],
    [{ name: 'x', version: 1 }, 'version', 'found 1'],
    [{ name: 'x', keywords: 'a,b' }, 'keywords', 'must be an array of strings'],
    [{ name: 'x', keywords: ['a', 3] }, 'keywords', 'keywords[1] is 3'],
    [{ name: 'x', author: 5 }, 'author', 'found 5'],
    [{ name: 'x', author: { email: 'a@b' } }, 'author', 'must be a string or an object'],
    [{ name: 'x', hooks: ['./a.json', 1] }, 'hooks', 'found an array'],
    [{ name: 'x', hooks: null }, 'hooks', 'found null'],
    [{ name: 'x', license: true }, 'license', 'found true'],
    [{ name: 'x', repository: 7 }, 'repository', 'found 7'],
  ])('P4: wrong type %j is an error with the JSON path, no coercion', (value, field, phrase) => {
    const found = errors(value);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'invalid_manifest', path: `${FILE}:${field}` });
    expect(found[0]!.message).toContain(phrase);
  });

  it('P2: name is required when a manifest exists', () => {
    const parsed = parseManifest({ version: '1.0.0' }, FILE);
    expect(parsed.manifest).toBeNull();
    expect(parsed.diagnostics[0]?.message).toBe(`${FILE}:name is missing (required in a manifest)`);
  });

  it('P4: a field of the wrong type is left out while the valid fields are kept', () => {
    const parsed = parseManifest({ name: 'x', version: '1.0.0', hooks: 5 }, FILE);
    expect(parsed.manifest).toEqual({ name: 'x', version: '1.0.0' });
  });

  it('P4: a manifest that is not an object is an error naming the file', () => {
    for (const value of [[], 'x', null, 3]) {
      const parsed = parseManifest(value, FILE);
      expect(parsed.manifest).toBeNull();
      expect(parsed.diagnostics[0]).toMatchObject({
        code: 'invalid_manifest',
        severity: 'error',
        path: FILE,
      });
    }
  });
});
