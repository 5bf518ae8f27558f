import { spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPayload } from '../../src/cli/read-payload.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('read-payload');

describe('readPayload (--payload of run and test)', () => {
  it('reads a file holding a JSON object', async () => {
    writeFileSync(join(tmp.dir, 'p.json'), '{"tool_name":"Bash"}');
    expect(await readPayload('p.json', tmp.dir)).toEqual({ tool_name: 'Bash' });
  });

  it('registry.md D7: a FIFO is refused at once with E_USAGE, never waited on', async () => {
    const fifo = join(tmp.dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(readPayload(fifo, tmp.dir)).rejects.toMatchObject({
      code: 'E_USAGE',
      message: `--payload: cannot read ${fifo} (it is a FIFO, not a regular file)`,
    });
  });

  it('registry.md D7: a symlink to a device is refused at once, never read without end', async () => {
    const link = join(tmp.dir, 'zero.json');
    symlinkSync('/dev/zero', link);
    await expect(readPayload(link, tmp.dir)).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringContaining(`--payload: cannot read ${link} (it is a character device`),
    });
  });

  it('a missing file is E_USAGE naming it', async () => {
    await expect(readPayload('missing.json', tmp.dir)).rejects.toMatchObject({
      code: 'E_USAGE',
      message: `--payload: cannot read ${join(tmp.dir, 'missing.json')} (ENOENT)`,
    });
  });
});
