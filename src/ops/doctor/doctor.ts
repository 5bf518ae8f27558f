import { HookpmError } from '../../errors.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { problem, type DoctorCheck, type DoctorReport } from './check.js';
import { collectLeftovers } from './fix.js';
import { findLeftovers, checkLeftovers } from './leftovers.js';
import type { HookpmPaths } from '../steps/links/hookpm-command.js';
import { checkFailClosed } from './fail-closed.js';
import { checkHookHealth } from './hook-health.js';
import { checkLinks } from './links.js';
import { checkLock } from './lock.js';
import { checkPlugins } from './plugins.js';
import { checkProjectFiles } from './project-files.js';
import { checkPolicy, type DoctorProject } from './policy.js';
import type { State } from '../../store/state/state-schema.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import { checkSandboxPolicy } from './policy-sandbox.js';
import { readPolicyFile } from '../../store/policy-file.js';
import { checkRegistries, type RegistryCheckOptions } from './registries.js';
import { readStateForDoctor, stateOkCheck } from './state.js';
import { checkStorePaths } from './store.js';
import { checkTrustStore } from './trust.js';

export type { CheckStatus, DoctorCheck, DoctorReport } from './check.js';

/**
 * What `hookpm doctor` looks at: the operation context's store, built-in registries, fetch timings
 * (of `--online` index fetches) and lock wait (of `--fix`; default 10 s here), and the user's home.
 */
export interface DoctorContext extends Pick<
  OperationContext,
  'paths' | 'defaults' | 'fetch' | 'lockWaitMs' | 'policy'
> {
  /** The user's home directory, whose `.deepagents/.state/hooks_trust.json` is the trust store. */
  userHome: string;
  /**
   * The directory doctor runs in: the plugins the state records for its project (its canonical
   * root, docs/guides/projects.md) are checked against the policy too. Absent: the user's only.
   */
  cwd?: string;
  /** The links to check (`hookpm link`): this hookpm and the directory whose project is looked at. */
  links?: { cwd: string; hookpm: HookpmPaths };
}

export interface DoctorOptions {
  /** Collect leftovers under the store lock first (the only change doctor ever makes). */
  fix: boolean;
  /** Fetch each network registry's index now; without it doctor makes no network access. */
  online: boolean;
}

/**
 * `hookpm doctor` (cli.md; registry.md D3, D4, D6; plugins.md Q4-Q6): checks the store
 * directories, the state, the lock, every installed plugin, leftovers, registries and the trust
 * store, what fails closed (docs/reference/rules/engine.md#fail-closed), the hooks that time out
 * or fail often (decision log), and says how to fix what it finds. Read-only: it writes nothing (not even the
 * `state.json.corrupt-*` copy other commands keep) except, with `fix`, what collecting leftovers
 * removes (see fix.ts), which runs before the checks so the report shows the result. A
 * check that cannot run becomes an error check; the report is always returned.
 */
export async function runDoctor(ctx: DoctorContext, opts: DoctorOptions): Promise<DoctorReport> {
  const fixed = opts.fix ? await collectLeftovers(ctx.paths, lockWait(ctx)) : null;
  const checks: DoctorCheck[] = [];
  checks.push(...(await guarded('store', () => checkStorePaths(ctx.paths))));
  const read = await readStateForDoctor(ctx.paths);
  checks.push(read.status === 'valid' ? stateOkCheck(ctx.paths, read) : read.check);
  checks.push(...(await guarded('lock', async () => [await checkLock(ctx.paths)])));
  const state = read.status === 'valid' ? read.state : null;
  // The project doctor runs in: its plugins run there beside the user's (docs/guides/projects.md),
  // so their trees, what fails closed and the policy are checked on them too.
  const project = await projectOf(state, ctx.cwd);
  const cwd = ctx.cwd;
  if (cwd !== undefined) checks.push(...(await guarded('project', () => checkProjectFiles(cwd))));
  if (state !== null)
    checks.push(...(await guarded('plugins', () => checkPlugins(ctx.paths, state, project))));
  checks.push(...(await guarded('fail-closed', () => checkFailClosed(ctx.paths, state, project))));
  const policy = ctx.policy ?? readPolicyFile(process.env);
  // docs/reference/rules/policy.md#a17: checked when a policy file exists, on the user's plugins
  // and on those of the project doctor runs in.
  if (policy.status !== 'absent')
    checks.push(
      ...(await guarded('policy', async () => checkPolicy(policy, state, ctx.defaults, project))),
    );
  checks.push(...(await guarded('policy', () => checkSandboxPolicy(policy, state, project))));
  if (fixed !== null) checks.push(fixed);
  checks.push(
    ...(await guarded('leftovers', async () => [
      checkLeftovers(await findLeftovers(ctx.paths, state), state !== null),
    ])),
  );
  if (state !== null) {
    const registryOpts: RegistryCheckOptions = {
      online: opts.online,
      ...(ctx.defaults === undefined ? {} : { defaults: ctx.defaults }),
      ...(ctx.fetch === undefined ? {} : { fetch: ctx.fetch }),
    };
    checks.push(
      ...(await guarded('registries', () => checkRegistries(ctx.paths, state, registryOpts))),
    );
  }
  checks.push(...(await guarded('hooks', async () => checkHookHealth(ctx.paths))));
  checks.push(...(await guarded('trust-store', async () => [await checkTrustStore(ctx.userHome)])));
  const links = ctx.links;
  if (links !== undefined)
    checks.push(...(await guarded('links', () => checkLinks({ home: ctx.userHome, ...links }))));
  return { ok: checks.every((check) => check.status !== 'error'), checks };
}

/**
 * The records of the project `cwd` is in, when the state records some for it; null otherwise, and
 * when its root cannot be found (a directory gone: the user's plugins are still checked).
 */
async function projectOf(
  state: State | null,
  cwd: string | undefined,
): Promise<DoctorProject | null> {
  const projects = state?.projects;
  if (projects === undefined || cwd === undefined) return null;
  const root = await canonicalProjectRoot(cwd).catch(() => null);
  if (root === null || !Object.hasOwn(projects, root)) return null;
  return { root, plugins: projects[root]!.plugins };
}

function lockWait(ctx: DoctorContext): { lockWaitMs?: number } {
  return ctx.lockWaitMs === undefined ? {} : { lockWaitMs: ctx.lockWaitMs };
}

/** Runs one group of checks; a failure it did not foresee (EACCES on a directory, ...) is an error check. */
async function guarded(name: string, run: () => Promise<DoctorCheck[]>): Promise<DoctorCheck[]> {
  try {
    return await run();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const hint = error instanceof HookpmError ? error.hint : undefined;
    return [
      problem(name, 'error', `could not be checked: ${why}`, {
        code: 'check_failed',
        ...(hint === undefined ? {} : { fix: hint }),
      }),
    ];
  }
}
