import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HookpmError } from '../../src/errors.js';
import {
  createIntegrityChecker,
  integrityOf,
  parseIntegrity,
  verifyIntegrity,
} from '../../src/registry/integrity.js';

const bytes = Buffer.from('plugin bytes');
const sha512 = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
const sha1 = `sha1-${createHash('sha1').update(bytes).digest('base64')}`;

describe('integrity', () => {
  it('I1: integrityOf is sha512- and the base64 digest, the same streamed in pieces', () => {
    expect(integrityOf(bytes)).toBe(sha512);
    const checker = createIntegrityChecker();
    checker.update(bytes.subarray(0, 5));
    checker.update(bytes.subarray(5));
    expect(checker.digest()).toBe(sha512);
  });

  it.each([sha1, 'sha256-abc', '', 'sha512-short', 'md5-xyz sha1-abc'])(
    'I1: %j has no sha512 entry and is E_INTEGRITY (sha512 required)',
    (sri) => {
      expect(() => parseIntegrity(sri)).toThrow(/sha512 required/);
    },
  );

  it('I1: a multi-hash SRI matches on its sha512 entry', () => {
    expect(parseIntegrity(`${sha1} ${sha512}`).sha512).toHaveLength(1);
    expect(() => verifyIntegrity(`${sha1} ${sha512}`, integrityOf(bytes))).not.toThrow();
  });

  it('security.md: different bytes are E_INTEGRITY with expected and found', () => {
    const found = integrityOf(Buffer.from('tampered'));
    try {
      verifyIntegrity(sha512, found, { url: 'https://example.com/x.tgz' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HookpmError);
      expect((error as HookpmError).code).toBe('E_INTEGRITY');
      expect((error as HookpmError).details).toMatchObject({ expected: sha512, found });
    }
  });
});
