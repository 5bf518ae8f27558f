/** Reading the administrator's policy file (docs/reference/rules/policy.md#a10, #a11). */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/store/policy-file.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('policy-file');

function policyOf(name: string, bytes: Buffer): ReturnType<typeof readPolicyFile> {
  const file = join(tmp.dir, name);
  writeFileSync(file, bytes);
  return readPolicyFile({ HOOKPM_POLICY_FILE: file });
}

describe('readPolicyFile', () => {
  it('A11: a file that is not UTF-8 cannot be used, naming why; a leading BOM is accepted', () => {
    const latin1 = Buffer.concat([
      Buffer.from('{"plugins": {"deny": ["gu'),
      Buffer.from([0xe9]),
      Buffer.from('ard"]}}'),
    ]);
    expect(policyOf('latin1.json', latin1)).toMatchObject({
      status: 'invalid',
      problem: 'it is not valid UTF-8',
    });
    const bom = Buffer.from('\ufeff{"plugins": {"deny": ["guard"]}}');
    expect(policyOf('bom.json', bom)).toMatchObject({
      status: 'ok',
      policy: { plugins: { deny: ['guard'] } },
    });
  });

  it('A11: a folder above the file that is a symbolic link to nothing (a mount that is gone) fails closed; a real folder without the file is no policy', () => {
    const gone = join(tmp.dir, 'net-config');
    symlinkSync(join(tmp.dir, 'unmounted'), gone);
    expect(
      readPolicyFile({ HOOKPM_POLICY_FILE: join(gone, 'hookpm', 'sub', 'policy.json') }),
    ).toMatchObject({
      status: 'invalid',
      problem: `its folder ${gone} is a symbolic link to nothing`,
    });
    mkdirSync(join(tmp.dir, 'mounted'));
    symlinkSync(join(tmp.dir, 'mounted'), join(tmp.dir, 'net-ok'));
    expect(
      readPolicyFile({ HOOKPM_POLICY_FILE: join(tmp.dir, 'net-ok', 'hookpm', 'policy.json') }),
    ).toMatchObject({ status: 'absent' });
  });

  it('A11: a path that goes through a file as a folder (a trailing slash after the file) fails closed; it is never no policy', () => {
    const file = join(tmp.dir, 'slash.json');
    writeFileSync(file, '{"plugins": {"deny": ["guard"]}}');
    for (const named of [`${file}/`, `${file}/.`, join(file, 'policy.json')])
      expect(readPolicyFile({ HOOKPM_POLICY_FILE: named })).toMatchObject({
        status: 'invalid',
        problem: expect.stringContaining('ENOTDIR'),
      });
  });

  it('A10, A11: a relative HOOKPM_POLICY_FILE cannot be used, whatever the working directory holds', () => {
    expect(readPolicyFile({ HOOKPM_POLICY_FILE: 'policy.json' })).toMatchObject({
      status: 'invalid',
      from: 'env',
      problem: expect.stringContaining('HOOKPM_POLICY_FILE is a relative path'),
    });
  });
});
