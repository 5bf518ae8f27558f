/**
 * A counter handler (node, CommonJS) that keeps `.state/count` in its own installed folder, as
 * Dev-GOM's plugins do: each run adds one and prints `run <count>`.
 */
export const COUNTER = [
  'const fs = require("fs"), path = require("path");',
  'const state = path.join(__dirname, "..", ".state");',
  'fs.mkdirSync(state, { recursive: true });',
  'const file = path.join(state, "count");',
  'const count = (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0) + 1;',
  'fs.writeFileSync(file, String(count));',
  'process.stdout.write(`run ${count}`);',
].join('\n');

/** The SessionStart payload of a fresh session `s1`. */
export const SESSION_START = JSON.stringify({
  session_id: 's1',
  hook_event_name: 'SessionStart',
  source: 'startup',
});
