import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cwdProblem } from '../../src/io/cwd-problem.js';
import { eventCwd } from '../../src/ops/steps/host/event-cwd.js';
import { makeTempDir, removeDir } from '../helpers/hook-fixtures.js';

// docs/reference/rules/cli.md#w2: where a linked event's handlers run when the payload's
// `cwd` cannot be used.

let dir: string;
beforeAll(() => {
  dir = makeTempDir('event-cwd');
});
afterAll(() => removeDir(dir));

describe('eventCwd', () => {
  it('W2: a usable payload cwd is where handlers run and the pin is made for, with no note', () => {
    const where = eventCwd(dir, '/agent', '/home');
    expect(where.forPin).toBe(dir);
    expect(where.resolve('/pinned')).toEqual({ cwd: dir });
  });

  it("W2: the pinned root first, then the agent's directory, then the home; each one that went is skipped", async () => {
    const [root, agent, home] = ['root', 'agent', 'home'].map((n) => join(dir, n)) as [
      string,
      string,
      string,
    ];
    for (const d of [root, agent, home]) await mkdir(d);
    const where = () => eventCwd(join(dir, 'gone'), agent, home);
    expect(where().forPin).toBe(agent);
    expect(where().resolve(root).cwd).toBe(root);
    await rm(root, { recursive: true });
    expect(where().resolve(root).cwd).toBe(agent);
    await rm(agent, { recursive: true });
    expect(where().forPin).toBe(home);
    const last = where().resolve(root);
    expect(last.cwd).toBe(home);
    expect(last.notes).toEqual([
      {
        code: 'cwd_unusable',
        severity: 'warning',
        message: `the payload's cwd does not exist; handlers run in ${home}, the user's home`,
      },
    ]);
  });

  it('W2: what makes a cwd unusable', async () => {
    await writeFile(join(dir, 'file'), 'x');
    expect(cwdProblem(undefined)).toBe('the payload has no cwd');
    expect(cwdProblem(null)).toBe("the payload's cwd is null, not a path");
    expect(cwdProblem(['/'])).toBe("the payload's cwd is an array, not a path");
    expect(cwdProblem('.')).toBe("the payload's cwd is not an absolute path");
    expect(cwdProblem(join(dir, 'file'))).toBe("the payload's cwd is not a directory");
    expect(cwdProblem(join(dir, 'nope'))).toBe("the payload's cwd does not exist");
    expect(cwdProblem(`${dir}/\0x`)).toMatch(/^the payload's cwd cannot be entered/);
    expect(cwdProblem(dir)).toBeNull();
  });
});
