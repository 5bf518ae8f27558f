import { appendDispatchLine } from '../../../store/dispatch-log.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { UserSettings } from '../../../store/user-settings.js';
import type { DispatchRecord } from '../../../engine/dispatch-options.js';
import { formatDispatchLine } from './dispatch-line.js';

/**
 * The `log` of DispatchOptions for a dispatch of `source` (`run`, `session`, `wire:<agent>`):
 * appends each dispatch (one that matched nothing too) to `<data>/log/dispatch.jsonl`, with text only when the
 * user's settings turn it on; undefined when they turn the log off. Never throws.
 */
export function dispatchLogger(
  paths: StorePaths,
  settings: Pick<UserSettings, 'log'>,
  source: string,
): ((record: DispatchRecord) => void) | undefined {
  if (!settings.log.enabled) return undefined;
  const text = settings.log.text;
  return (record) => {
    appendDispatchLine(paths, formatDispatchLine(record, { source, text }));
  };
}
