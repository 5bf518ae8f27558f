import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readState } from '../store/state.js';
import type { InstallOptions, InstallResult } from './install.js';
import { entryOf, recordOf } from './install-record.js';
import { stagePlugin } from './install-stage.js';
import type { InstallSource } from './install-source.js';
import { nowIso, type PluginContext } from './plugin-context.js';

/** `--dry-run`: stages each plugin in a temporary directory outside the store, reports, removes it. */
export async function planInstall(
  ctx: PluginContext,
  sources: readonly InstallSource[],
  opts: InstallOptions,
): Promise<InstallResult> {
  const state = await readState(ctx.paths);
  const result: InstallResult = {
    installed: [],
    dryRun: true,
    notes: ['dry run: nothing was changed'],
  };
  for (const source of sources) {
    const temp = await mkdtemp(join(tmpdir(), 'hookpm-dry-run-'));
    try {
      const staged = await stagePlugin(source, { into: join(temp, 'plugin') });
      const existing = state.plugins[staged.inspected.id];
      const same =
        existing !== undefined &&
        !opts.force &&
        existing.version === staged.inspected.version &&
        existing.fingerprint === staged.fingerprint;
      const record = recordOf(staged, '', nowIso(ctx));
      record.enabled = opts.enable === 'yes' || (existing?.enabled ?? false);
      result.installed.push({
        ...entryOf(same ? existing : record, same ? 'would-keep' : 'would-install'),
        path: same ? existing.path : null,
      });
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
  return result;
}
