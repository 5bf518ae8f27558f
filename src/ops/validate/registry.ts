import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readFailureReason, readRegularText } from '../../io/read-regular-file.js';
import { INDEX_MAX_BYTES } from '../../registry/http/fetch-options.js';
import { basename, join } from 'node:path';
import { isHookpmError } from '../../errors.js';
import { diagnostic } from '../../hooks/diagnostic.js';
import { eventOrder, isEventName, type EventName } from '../../hooks/events.js';
import { parseJson } from '../../json/parse-json.js';
import { parseIndex } from '../../registry/indexes/index-schema.js';
import type { KindFindings } from './findings.js';

/** `hookpm validate` takes a registry directory (holding `index.json`), or that file. */
export function isRegistryPath(path: string, pathKind: string): boolean {
  if (pathKind === 'file') return basename(path) === 'index.json';
  return pathKind === 'directory' && existsSync(join(path, 'index.json'));
}

/**
 * `hookpm validate <registry dir>` (kind "registry"): `index.json` checked as a whole by
 * parseIndex (registry.md I1: schema, canonical semver keys, sha512 integrity, tarball
 * locations). The first problem is one error naming the field; `plugins` lists the index's
 * plugins and `events` those its versions declare.
 */
export async function validateRegistryDir(path: string): Promise<KindFindings> {
  const file = (await stat(path)).isFile() ? path : join(path, 'index.json');
  const fail = (message: string, field?: string): KindFindings => ({
    events: [],
    plugins: [],
    diagnostics: [
      diagnostic('invalid_registry_index', 'error', message, {
        path: field === undefined || field === '' ? 'index.json' : `index.json:${field}`,
      }),
    ],
  });
  let text: string;
  try {
    // A FIFO or a device given as the index is refused at once (registry.md D7), never waited on.
    text = readRegularText(file, { maxBytes: INDEX_MAX_BYTES, followSymlink: true });
  } catch (error) {
    return fail(`${file}: cannot be read (${readFailureReason(error)})`);
  }
  const json = parseJson(text, 'index.json');
  if (!json.ok)
    return fail(`index.json:${json.line}:${json.column}: invalid JSON: ${json.message}`);
  try {
    const index = parseIndex(json.value, 'index.json');
    const seen = new Set<EventName>();
    for (const plugin of Object.values(index.plugins)) {
      for (const version of Object.values(plugin.versions)) {
        for (const event of version.events ?? []) if (isEventName(event)) seen.add(event);
      }
    }
    const events = [...seen].sort((a, b) => eventOrder(a) - eventOrder(b));
    return { events, diagnostics: [], plugins: Object.keys(index.plugins).sort() };
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    const field = typeof error.details['field'] === 'string' ? error.details['field'] : undefined;
    return fail(error.message, field);
  }
}
