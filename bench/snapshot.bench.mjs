// Building a snapshot from 500 documents of 4 groups each (target < 50 ms) and matching one
// PreToolUse target against their 2,000 groups (target < 1 ms), each next to the cost of JSON.parse
// of the same documents. Uses the built code in dist/.
import { parseHooksDocument } from '../dist/hooks/parse-document.js';
import { buildSnapshot } from '../dist/hooks/snapshot/snapshot.js';
import { matchHandlers } from '../dist/hooks/snapshot/snapshot-match.js';
import { parseJson } from '../dist/json/parse-json.js';
import { medianMs, medianPerCallMs } from './measure.mjs';

const DOCUMENTS = 500;
const MATCHERS = [
  (i) => `Tool${i}`,
  (i) => `Edit|Write|Tool${i}x`,
  (i) => `^mcp__server${i}__.*`,
  () => '*',
];

/** One plugin's hooks.json: four PreToolUse groups of varied matchers, some `if` rules. */
function documentText(i) {
  const groups = MATCHERS.map((matcher, g) => ({
    matcher: matcher(i),
    hooks: [
      {
        type: 'command',
        command: `"\${CLAUDE_PLUGIN_ROOT}/hooks/check-${g}.sh" --plugin ${i}`,
        timeout: 10,
      },
      ...(g === 3 ? [{ type: 'command', command: `echo ${i}`, if: 'Bash(git push*)' }] : []),
    ],
  }));
  return JSON.stringify({ description: `plugin ${i}`, hooks: { PreToolUse: groups } }, null, 2);
}

const texts = Array.from({ length: DOCUMENTS }, (_, i) => documentText(i));

/** The documents as a session reads them: strict JSON, then the hooks schema (plugin sources). */
function readSources() {
  return texts.map((text, i) => {
    const file = `/store/p${i}/hooks/hooks.json`;
    const json = parseJson(text, file);
    const parsed = parseHooksDocument(json.value, { file, legacy: false });
    const id = `p${String(i).padStart(4, '0')}@bench`;
    return {
      origin: 'plugin',
      file,
      config: parsed.config,
      plugin: { id, root: `/store/p${i}`, data: `/data/p${i}` },
    };
  });
}

const build = (sources) => buildSnapshot({ projectDir: '/project', sources });

export default async function run() {
  const parseAll = () => texts.map((text) => JSON.parse(text));
  const parseMs = medianMs(parseAll);
  const fullMs = medianMs(() => build(readSources()));
  const sources = readSources();
  const buildOnlyMs = medianMs(() => build(sources));
  const snapshot = build(sources);
  const groups = snapshot.groups.PreToolUse?.length ?? 0;
  if (groups !== DOCUMENTS * MATCHERS.length) throw new Error(`Assertion failed: ${groups} groups`);
  const payload = { tool_name: 'Bash', tool_input: { command: 'git push origin main' } };
  if (matchHandlers(snapshot, 'PreToolUse', payload).length !== DOCUMENTS * 2) {
    throw new Error('Assertion failed: unexpected match count');
  }
  const matchMs = medianPerCallMs(() => matchHandlers(snapshot, 'PreToolUse', payload));
  const yardstick = { name: 'JSON.parse', valueMs: parseMs };
  const docs = `${DOCUMENTS} documents x 4 groups`;
  return [
    { name: `snapshot: read + build, ${docs}`, valueMs: fullMs, yardstick, targetMs: 50 },
    { name: `snapshot: build from parsed, ${docs}`, valueMs: buildOnlyMs, yardstick, targetMs: 50 },
    {
      name: `snapshot: match one PreToolUse target, ${groups} groups`,
      valueMs: matchMs,
      yardstick,
      targetMs: 1,
    },
  ];
}
