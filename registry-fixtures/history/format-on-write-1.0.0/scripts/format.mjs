#!/usr/bin/env node
// PostToolUse (Write|Edit|MultiEdit): formats the written file with the formatter the project
// already uses, and tells the user (systemMessage) and the agent (additionalContext) what happened.
// It never fails the tool: every path ends in exit 0, and a formatter error is only reported.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const PRETTIER_EXTENSIONS = new Set([
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.json',
  '.jsonc',
  '.css',
  '.scss',
  '.less',
  '.html',
  '.vue',
  '.md',
  '.mdx',
  '.yaml',
  '.yml',
  '.graphql',
  '.gql',
]);

try {
  const payload = JSON.parse(await readStdin());
  const report = formatFrom(payload);
  if (report !== null) process.stdout.write(`${JSON.stringify(report)}\n`);
} catch (error) {
  process.stderr.write(
    `format-on-write: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
process.exit(0);

function formatFrom(payload) {
  const filePath = payload?.tool_input?.file_path;
  if (typeof filePath !== 'string' || filePath === '') return null;
  const project = realpathSync(process.env.CLAUDE_PROJECT_DIR || payload.cwd || process.cwd());
  const written = resolve(typeof payload.cwd === 'string' ? payload.cwd : project, filePath);
  if (!existsSync(written) || !statSync(written).isFile()) return null;
  // Only files inside the project are formatted (symlinks resolved), with the project's own tools.
  const file = realpathSync(written);
  const rel = relative(project, file);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  const formatter = pickFormatter(file, project);
  if (formatter === null) return null;
  const run = spawnSync(formatter.argv[0], formatter.argv.slice(1), {
    cwd: project,
    encoding: 'utf8',
    timeout: 45_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.error !== undefined || run.status !== 0) {
    const why = run.error?.message ?? firstLine(run.stderr) ?? `exit code ${run.status}`;
    return { systemMessage: `format-on-write: ${formatter.name} could not format ${rel}: ${why}` };
  }
  return {
    systemMessage: `format-on-write: formatted ${rel} with ${formatter.name}`,
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      additionalContext: `${rel} was reformatted by ${formatter.name} after your edit; read it again before editing it further.`,
    },
  };
}

/** The project's formatter for this file: prettier from node_modules/.bin, else a tool on PATH. */
function pickFormatter(file, project) {
  const ext = extname(file).toLowerCase();
  if (PRETTIER_EXTENSIONS.has(ext)) {
    const prettier = findUp(dirname(file), project, join('node_modules', '.bin', 'prettier'));
    if (prettier !== null)
      return { name: 'prettier', argv: [prettier, '--write', '--log-level', 'warn', file] };
  }
  if (ext === '.go') {
    const gofmt = onPath('gofmt');
    if (gofmt !== null) return { name: 'gofmt', argv: [gofmt, '-w', file] };
  }
  if (ext === '.rs') {
    const rustfmt = onPath('rustfmt');
    if (rustfmt !== null) return { name: 'rustfmt', argv: [rustfmt, '--edition', '2021', file] };
  }
  if (ext === '.py' || ext === '.pyi') {
    const black = onPath('black');
    if (black !== null) return { name: 'black', argv: [black, '--quiet', file] };
  }
  return null;
}

/** `name` in `dir` or an ancestor, never above the project root. */
function findUp(dir, project, name) {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, name);
    if (isExecutable(candidate)) return candidate;
    if (current === project || dirname(current) === current) return null;
  }
}

function onPath(tool) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && isExecutable(join(dir, tool))) return join(dir, tool);
  }
  return null;
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function firstLine(text) {
  const line = (text ?? '').split('\n').find((l) => l.trim() !== '');
  return line === undefined ? undefined : line.trim().slice(0, 300);
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
