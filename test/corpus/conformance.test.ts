import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/hooks/diagnostic.js';
import { isClaudeCodeEvent, isEventName } from '../../src/hooks/events.js';
import { childPath, documentPath } from '../../src/hooks/json-path.js';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { HooksConfig } from '../../src/hooks/types.js';
import { parseJson } from '../../src/json/parse-json.js';
import { readHooksFile } from '../../src/workspace/read-hooks-file.js';
import { findDocuments, isObject, type CorpusDocument } from './corpus-documents.js';

/** The shared corpus, read at test time (corpus/INDEX.md). */
const CORPUS = fileURLToPath(new URL('../../../shared/corpus', import.meta.url));
const FOLDERS = readdirSync(CORPUS)
  .filter((name) => statSync(join(CORPUS, name)).isDirectory())
  .sort();

/**
 * Where INDEX.md and the spec disagree, the spec wins (INDEX.md says so); each entry says why.
 * Values: the events (INDEX notation) that this implementation does not see declared.
 */
const SPEC_OVERRIDES: Readonly<Record<string, { missing: string[]; why: string }>> = {
  'Yeachan-Heo__oh-my-claudecode__oh-my-claudecode_at_bf2f98d': {
    missing: ['Stop', 'UserPromptSubmit'],
    why: 'C2: hooks/hooks.json has its events at the top level, without a "hooks" object, so it is not loaded; the manifest path "../hooks/hooks.json" is refused by H2',
  },
};

interface Loaded {
  doc: CorpusDocument;
  /** The document value when it parsed as JSON. */
  value: unknown;
  config: HooksConfig | null;
  diagnostics: Diagnostic[];
}

async function load(doc: CorpusDocument): Promise<Loaded> {
  if (doc.kind === 'inline') {
    const parsed = parseHooksDocument(doc.value, { file: doc.file, legacy: false });
    return withSnapshot({
      doc,
      value: doc.value,
      config: parsed.config,
      diagnostics: parsed.diagnostics,
    });
  }
  const read = await readHooksFile({ file: doc.file, origin: 'plugin', legacy: false });
  if (read.status === 'missing') throw new Error(`Assertion failed: ${doc.file} vanished`);
  if (read.status === 'failed')
    return { doc, value: undefined, config: null, diagnostics: [read.diagnostic] };
  const json = parseJson(readFileSync(doc.file, 'utf8'), doc.file);
  const value = json.ok ? json.value : undefined;
  return withSnapshot({ doc, value, config: read.parsed.config, diagnostics: read.diagnostics });
}

/** The snapshot compiles matchers and `if` rules (E4, E5, F3): its diagnostics count as the document's. */
function withSnapshot(loaded: Loaded): Loaded {
  if (loaded.config === null) return loaded;
  const source = { origin: 'plugin' as const, file: loaded.doc.file, config: loaded.config };
  const plugin = { id: 'corpus@test', root: '/plugin', data: '/data' };
  const snapshot = buildSnapshot({ projectDir: '/project', sources: [{ ...source, plugin }] });
  return { ...loaded, diagnostics: [...loaded.diagnostics, ...snapshot.diagnostics] };
}

function declaredKeys(value: unknown): string[] {
  return isObject(value) && isObject(value.hooks) ? Object.keys(value.hooks) : [];
}

function indexEvents(): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const line of readFileSync(join(CORPUS, 'INDEX.md'), 'utf8').split('\n')) {
    const match = /^- \*\*(.+?)\*\* .* — events: (.*?) — quirks:/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    index.set(match[1], match[2] === '—' ? [] : match[2].split(',').map((e) => e.trim()));
  }
  return index;
}

describe('corpus conformance (corpus/INDEX.md)', () => {
  it('reads the shared corpus and its INDEX', () => {
    expect(FOLDERS.length).toBeGreaterThan(50);
    expect(indexEvents().size).toBeGreaterThan(40);
  });

  it.each(FOLDERS)(
    'C1-C3, S5, H1-H3: every hooks document of %s loads with the engine events it declares, or yields diagnostics; none throws',
    async (folder) => {
      const { documents, refusals } = findDocuments(join(CORPUS, folder));
      for (const refusal of refusals) expect(refusal.reason.length).toBeGreaterThan(10);
      for (const doc of documents) {
        const loaded = await load(doc);
        const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
        const loadedEvents = Object.keys(loaded.config ?? {});
        expect(
          loadedEvents.length > 0 || errors.length > 0,
          `${doc.file}: neither loads nor says why`,
        ).toBe(true);
        const hooksPath = childPath(documentPath(doc.file), 'hooks');
        const keys = declaredKeys(loaded.value);
        for (const event of loadedEvents) expect(keys).toContain(event);
        for (const key of keys) {
          const path = childPath(hooksPath, key);
          if (!isEventName(key) && !isClaudeCodeEvent(key)) {
            // C2: a name no agent knows is invalid_config for that key only; Claude Code's own
            // events (plugins.md G1) load like the engine's, to run inside Claude Code.
            expect(
              loaded.diagnostics.some((d) => d.code === 'invalid_config' && d.path === path),
              `${path}`,
            ).toBe(true);
          } else if (!loadedEvents.includes(key)) {
            // C1: an engine event that does not load has had all its groups rejected, with reasons.
            expect(
              errors.some((d) => d.path?.startsWith(path)),
              `${path}: dropped silently`,
            ).toBe(true);
          }
        }
      }
    },
  );

  const index = indexEvents();
  it.each([...index.keys()].filter((f) => FOLDERS.includes(f)))(
    "Q1, C2, G1: the events declared by the documents of %s are those INDEX.md lists (‡ ones give invalid_config, Claude Code's † ones load)",
    async (folder) => {
      const { documents } = findDocuments(join(CORPUS, folder));
      const declared = new Set<string>();
      const invalidKeys = new Set<string>();
      for (const doc of documents) {
        const loaded = await load(doc);
        const hooksPath = childPath(documentPath(doc.file), 'hooks');
        for (const key of declaredKeys(loaded.value)) {
          declared.add(key);
          const path = childPath(hooksPath, key);
          if (loaded.diagnostics.some((d) => d.code === 'invalid_config' && d.path === path))
            invalidKeys.add(key);
        }
      }
      const listed = index.get(folder) ?? [];
      const override = SPEC_OVERRIDES[folder];
      const expected = listed.filter((e) => !override?.missing.includes(e));
      const names = expected.map((e) => e.replace(/[†‡]$/, ''));
      expect([...declared].sort()).toEqual([...names].sort());
      for (const event of expected.filter((e) => /‡$/.test(e))) {
        expect(invalidKeys, `${event} must give invalid_config`).toContain(event.slice(0, -1));
      }
      for (const event of expected.filter((e) => /†$/.test(e))) {
        expect(isClaudeCodeEvent(event.slice(0, -1)), `${event} is Claude Code's`).toBe(true);
        expect(invalidKeys, `${event} loads (G1)`).not.toContain(event.slice(0, -1));
      }
    },
  );

  it('no JSON file of the corpus, taken as a hooks document of any kind, makes the parser throw', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.json')) files.push(full);
      }
    };
    walk(CORPUS);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const json = parseJson(readFileSync(file, 'utf8'), file);
      if (!json.ok) continue;
      for (const legacy of [true, false]) {
        const parsed = parseHooksDocument(json.value, { file, legacy });
        expect(parsed.config !== null || parsed.diagnostics.length > 0).toBe(true);
      }
    }
  });
});
