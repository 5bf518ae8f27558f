/**
 * security.md Z4 in a project (docs/guides/projects.md), with the built binary against a registry
 * on 127.0.0.1: the confinement a user recorded with `enable --confine` stays with the consent
 * when a project install makes a new record of the plugin - a new locked version of the project's
 * own record, or the user-wide consent carried into a project - and is never dropped without a
 * question.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';
import { runBin } from '../helpers/built-bin.js';

const ctx = useRegistryHome('hookpm-project-confine-e2e-');
const { ok } = ctx;
const CONFINE = { network: false, write: ['data'] };
let project: string;

beforeEach(async () => {
  await ok('registry', 'add', 'acme', ctx.acme.url);
  await publishPlugin(ctx.acme, 'notes', '1.0.0', { Stop: ['echo done'] });
  await publishPlugin(ctx.acme, 'notes', '1.1.0', { Stop: ['echo done'] });
  project = join(ctx.home.dir, 'repo');
  await mkdir(join(project, '.git'), { recursive: true });
});

/** Runs `hookpm ...args` in the project and expects exit 0. */
async function inProject(...args: string[]): Promise<void> {
  const run = await runBin(args, { env: ctx.home.env, cwd: project, stdin: '' });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
}

/** The consent of notes@acme in the project's records. */
function projectConsent(): unknown {
  const state = JSON.parse(
    readFileSync(join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8'),
  ) as { projects: Record<string, { plugins: Record<string, { consent: unknown }> }> };
  const [records] = Object.values(state.projects);
  return records?.plugins['notes@acme']?.consent;
}

/** The consent of notes@acme in the records of the project at `dir`. */
function consentIn(dir: string): unknown {
  const state = JSON.parse(
    readFileSync(join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8'),
  ) as { projects: Record<string, { plugins: Record<string, { consent: unknown }> }> };
  return state.projects[realpathSync(dir)]?.plugins['notes@acme']?.consent;
}

describe('enable --confine in a project (security.md Z4)', () => {
  it('Z4: a project install of a new locked version keeps the confinement given with `enable --project --confine`', async () => {
    await inProject('install', '--project', 'notes@acme@1.0.0', '--yes');
    await inProject('enable', '--project', 'notes', '--confine', 'network=false,write=data');
    expect(projectConsent()).toMatchObject({ version: '1.0.0', confine: CONFINE });
    await inProject('install', '--project', 'notes@acme@1.1.0');
    expect(projectConsent()).toMatchObject({ version: '1.1.0', confine: CONFINE });
  });

  it("Z4: a consent carried from another project keeps that project's confinement, not the unconfined user-wide consent to an older version", async () => {
    await ok('install', 'notes@acme@1.0.0', '--yes');
    const other = join(ctx.home.dir, 'other');
    await mkdir(join(other, '.git'), { recursive: true });
    const inOther = async (...args: string[]) => {
      const run = await runBin(args, { env: ctx.home.env, cwd: other, stdin: '' });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    };
    await inOther('install', '--project', 'notes@acme@1.1.0', '--yes');
    await inOther('enable', '--project', 'notes', '--confine', 'network=false,write=data');
    // 1.1.0's tree was consented to only confined: it carries into this project so.
    await inProject('install', '--project', 'notes@acme@1.1.0');
    expect(consentIn(project)).toMatchObject({ version: '1.1.0', confine: CONFINE });
  });

  it('Z4: the user-wide consent carried into a project keeps its confinement', async () => {
    await ok('install', 'notes@acme@1.1.0', '--yes');
    await ok('enable', 'notes', '--confine', 'network=false,write=data');
    await inProject('install', '--project', 'notes@acme@1.1.0');
    expect(projectConsent()).toMatchObject({ version: '1.1.0', confine: CONFINE });
  });
});
