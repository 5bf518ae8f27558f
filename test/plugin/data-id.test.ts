import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sanitizePluginId, sanitizesTo } from '../../src/plugin/data-id.js';

function hash12(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 12);
}

describe('sanitizePluginId', () => {
  it.each([
    ['guard@examples', 'guard-examples'],
    ['a.b@r', 'a-b-r'],
    ['a-b@r', 'a-b-r'],
    ['my_plugin-2@local', 'my_plugin-2-local'],
    ['../x@r', '---x-r'],
    ['fоо@r', 'f---r'],
    ['a/b\\c:d e@r', 'a-b-c-d-e-r'],
    ['😀@r', '--r'],
  ])('V3: %s keeps letters, digits, _ and - and maps the rest to -', (id, safe) => {
    expect(sanitizePluginId(id)).toBe(`${safe}-${hash12(id)}`);
  });

  it('V3: a.b@r and a-b@r never collide', () => {
    expect(sanitizePluginId('a.b@r')).not.toBe(sanitizePluginId('a-b@r'));
  });

  it('V3: the result is always a safe single path segment', () => {
    for (const id of ['..@..', '.@.', '/@/', '\u0000@\n', 'A'.repeat(64) + '@npm']) {
      expect(sanitizePluginId(id)).toMatch(/^[A-Za-z0-9_-]+-[0-9a-f]{12}$/);
    }
  });

  it('V3: the same id always gives the same name', () => {
    expect(sanitizePluginId('guard@examples')).toBe(sanitizePluginId('guard@examples'));
  });

  it('V3: sanitizesTo(id, name) holds exactly when sanitizePluginId(id) is name', () => {
    const ids = [
      'guard@examples',
      'a.b@r',
      'a-b@r',
      'fоо@r',
      '😀@r',
      '😀x@r',
      'a/b\\c:d e@r',
      'g@e',
    ];
    for (const id of ids)
      for (const other of ids)
        expect(sanitizesTo(id, sanitizePluginId(other))).toBe(
          sanitizePluginId(id) === sanitizePluginId(other),
        );
  });
});
