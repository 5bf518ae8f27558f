import type { AgentId } from '../../agents/agent.js';
import { applyUnlink, linkHandlersOf } from '../../agents/link-edit.js';
import { sha256Hex } from '../../json/canonical-json.js';
import {
  backupSettings,
  discardBackup,
  linkKey,
  pruneBackups,
  readLinkRecord,
  removeLinkRecord,
  type LinkRecord,
} from '../../store/link-records.js';
import { withStoreLock } from '../../store/state/state.js';
import type { StorePaths } from '../../store/store-paths.js';
import {
  removeMadeDirs,
  removeSettingsFile,
  writeSettingsFile,
} from '../../workspace/agent-settings-file.js';
import { assertWriteInside } from '../../workspace/inside-root.js';
import { linkTarget, type LinkScope, type LinkTargetOptions } from '../steps/links/link-target.js';
import {
  assertWritable,
  changedMeanwhile,
  readBackup,
  readSettingsText,
  settingsBefore,
  settingsBytes,
  unchangedSince,
  type SettingsBackup,
  type SettingsText,
} from '../steps/links/settings-text.js';

export interface UnlinkOptions extends LinkTargetOptions {
  store: StorePaths;
}

export interface UnlinkResult {
  agent: AgentId;
  name: string;
  scope: LinkScope;
  file: string;
  /** How the file was given back: `restored` (the bytes from before link, or no file again),
   * `edited` (only hookpm's handlers taken out) or `unchanged` (no link there). */
  outcome: 'restored' | 'edited' | 'unchanged';
  backup: string | null;
}

/**
 * `hookpm unlink <agent>`: takes exactly hookpm's handlers out. When the file is still what link
 * wrote, it gets back the bytes it had before link (or, had there been no file, none): the file is
 * byte-identical to before. Otherwise only hookpm's handlers go (link-edit.ts). Same locking,
 * backup and errors as linkAgent.
 */
export async function unlinkAgent(options: UnlinkOptions): Promise<UnlinkResult> {
  const target = await linkTarget(options);
  if (target.root !== undefined) assertWriteInside(target.root, target.file, 'the project');
  const key = linkKey(options.agent, target.file);
  const base = {
    agent: options.agent,
    name: target.agent.name,
    scope: target.scope,
    file: target.file,
  };
  return withStoreLock(options.store, async () => {
    const read = await readSettingsText(target.file, target.agent.hooksConfigKeys);
    const record = await readLinkRecord(options.store, key);
    const bytes = read.file.bytes;
    if (
      bytes === null ||
      read.text === null ||
      linkHandlersOf(read.settings, options.agent).length === 0
    ) {
      await removeLinkRecord(options.store, key);
      return { ...base, outcome: 'unchanged', backup: null };
    }
    assertWritable(read);
    const restore = restorable(
      read,
      readBackup(options.store, key, record, target.agent.hooksConfigKeys),
      record,
    );
    const backup = await backupSettings(options.store, key, bytes, read.file.mode);
    try {
      if (!(await unchangedSince(read))) throw changedMeanwhile(target.file);
      if (restore === 'no file') await removeSettingsFile(read.file);
      else if (restore !== null) await writeSettingsFile(read.file, restore);
      else
        await writeSettingsFile(
          read.file,
          settingsBytes(
            applyUnlink(
              read.text,
              read.settings,
              options.agent,
              settingsBefore(options.store, key, record, target.agent.hooksConfigKeys),
            ),
            read.bom,
          ),
        );
    } catch (error) {
      // A failed unlink leaves the store's backups as they were.
      await discardBackup(backup);
      throw error;
    }
    if (restore === 'no file' && record?.madeDir !== undefined)
      await removeMadeDirs(read.file, record.madeDir);
    await pruneBackups(options.store, key, record?.before ?? null);
    await removeLinkRecord(options.store, key);
    return { ...base, outcome: restore === null ? 'edited' : 'restored', backup };
  });
}

/**
 * The bytes from before link when nothing but hookpm changed the file since, else null; from a
 * backup readBackup checked, so never bytes that are not a settings document.
 */
function restorable(
  read: SettingsText,
  backup: SettingsBackup | null,
  record: LinkRecord | null,
): Buffer | 'no file' | null {
  if (record === null || !record.restorable || read.file.bytes === null) return null;
  if (sha256Hex(read.file.bytes) !== record.writtenSha256) return null;
  // No file before link: the file goes, but only a file at the agent's path. A symlink there
  // (the file moved into a dotfiles repository since) stays, and its target only loses hookpm's
  // handlers: that file is the user's now.
  if (record.before === null) return read.file.isLink ? null : 'no file';
  return backup?.bytes ?? null;
}
