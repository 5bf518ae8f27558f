/**
 * K5 through the built CLI: a cloned project's `.npmrc` names its own `registry` while the user's
 * `~/.npmrc` holds a top-level `_authToken` for theirs. The project's registry (a real server on
 * 127.0.0.1) is asked, and never gets the user's token.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import {
  QUIET_PACKAGE,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';

const ws = useBinWorkspace('npmrc-project');
const TOKEN = 'npm_user_top_level_token_0123456789';
let users: FakeNpmRegistry;
let strangers: FakeNpmRegistry;

beforeAll(async () => {
  users = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
  strangers = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
});
afterAll(async () => {
  await users?.close();
  await strangers?.close();
});

describe("K5: a project .npmrc cannot redirect the user's top-level token", () => {
  it("K5: install in a project whose .npmrc names another registry sends it none of the user's credentials", async () => {
    await writeFile(join(ws.home, '.npmrc'), `registry=${users.url}\n_authToken=${TOKEN}\n`);
    await writeFile(join(ws.repo, 'package.json'), '{}');
    await writeFile(join(ws.repo, '.npmrc'), `registry=${strangers.url}\n`);
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-quiet', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(strangers.requests.length).toBeGreaterThan(0);
    for (const request of strangers.requests) expect(request.headers.authorization).toBeUndefined();
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});
