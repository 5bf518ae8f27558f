/**
 * Checks an example plugin's manifest and hooks document with hookpm's own validators
 * (plugins.md P1-P4, engine.md section 3): no error diagnostics, the handlers use both `command`
 * (for display and for hosts without argv) and `argv`, and every script they name exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { expect } from 'vitest';
import { EVENTS, isEventName } from '../../src/hooks/events.js';
import { compileMatcher, matcherAccepts } from '../../src/hooks/matcher.js';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { parseManifest } from '../../src/plugin/manifest.js';
import { PLUGINS_DIR, readHooksFile } from './run-hook.js';

export function checkPluginFiles(name: string, expectedEvents: string[]): void {
  const root = join(PLUGINS_DIR, name);
  const manifestFile = join(root, '.claude-plugin', 'plugin.json');
  const manifestValue: unknown = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const manifest = parseManifest(manifestValue, manifestFile);
  expect(manifest.diagnostics).toEqual([]);
  expect(manifest.manifest).toMatchObject({ name, license: 'MIT' });
  expect(semver.valid(manifest.manifest?.version ?? '')).not.toBeNull();
  expect(manifest.manifest?.description?.length ?? 0).toBeGreaterThan(20);
  expect(manifest.manifest?.keywords?.length ?? 0).toBeGreaterThan(0);
  expect(existsSync(join(root, 'README.md'))).toBe(true);

  const hooksFile = join(root, 'hooks', 'hooks.json');
  const document: unknown = JSON.parse(readFileSync(hooksFile, 'utf8'));
  const parsed = parseHooksDocument(document, { file: 'hooks/hooks.json', legacy: false });
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(parsed.diagnostics).toEqual([]);
  expect(Object.keys(parsed.config ?? {})).toEqual(expectedEvents);
  expect(parsed.declared.every((h) => h.valid)).toBe(true);
  for (const handler of parsed.declared) {
    const argv = handler.argv as string[];
    expect(argv[0]).toBe('node');
    const script = argv[1]?.replace('${CLAUDE_PLUGIN_ROOT}/', '') ?? '';
    expect(existsSync(join(root, script)), `${script} exists`).toBe(true);
    expect(handler.command).toBe(`node "\${CLAUDE_PLUGIN_ROOT}/${script}"`);
    expect(typeof handler.timeout).toBe('number');
  }
}

/**
 * Whether the plugin's first group for `event` matches a payload whose matcher field (engine.md
 * section 1) is `value`, using hookpm's own matcher (E1-E3).
 */
export function groupMatches(name: string, event: string, value: string): boolean {
  if (!isEventName(event)) throw new Error(`not an event: ${event}`);
  const group = readHooksFile(join(PLUGINS_DIR, name)).hooks[event]?.[0];
  if (group === undefined) throw new Error(`${name} has no ${event} group`);
  const compiled = compileMatcher(group.matcher ?? null, event);
  if (!compiled.ok) throw new Error(compiled.message);
  const field = EVENTS[event].matcherField;
  return matcherAccepts(compiled.matcher, event, field === null ? {} : { [field]: value });
}

/** The plugin's first `event` group matches each of `matching` and none of `notMatching`. */
export function expectGroupMatches(
  name: string,
  event: string,
  matching: string[],
  notMatching: string[] = [],
): void {
  for (const value of matching) expect(groupMatches(name, event, value), value).toBe(true);
  for (const value of notMatching) expect(groupMatches(name, event, value), value).toBe(false);
}
