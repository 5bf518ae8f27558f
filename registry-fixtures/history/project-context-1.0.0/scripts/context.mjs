#!/usr/bin/env node
// SessionStart (startup|resume): gives the agent its bearings as additionalContext: the git
// branch, the last five commits, how many files have uncommitted changes, and an excerpt of
// CONTEXT.md or AGENTS.md. The whole context is capped at MAX_CONTEXT characters.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const MAX_CONTEXT = 6_000;
const MAX_DOC = 2_500;
const DOCS = ['CONTEXT.md', 'AGENTS.md'];

try {
  const payload = JSON.parse(await readStdin());
  const root = resolve(process.env.CLAUDE_PROJECT_DIR || payload?.cwd || process.cwd());
  const context = buildContext(root);
  if (context !== '') {
    const output = {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
  }
} catch (error) {
  process.stderr.write(
    `project-context: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
process.exit(0);

function buildContext(root) {
  const sections = [...gitSections(root), ...docSection(root)];
  if (sections.length === 0) return '';
  const text = `Project context (from the project-context plugin):\n\n${sections.join('\n\n')}`;
  return text.length > MAX_CONTEXT ? `${text.slice(0, MAX_CONTEXT - 16)}\n[... truncated]` : text;
}

function gitSections(root) {
  const inside = git(root, ['rev-parse', '--is-inside-work-tree']);
  if (inside === null || inside.trim() !== 'true') return [];
  const branch = git(root, ['symbolic-ref', '--short', '-q', 'HEAD'])?.trim() || '(detached HEAD)';
  const sections = [`Git branch: ${branch}`];
  const log = git(root, ['log', '-5', '--no-decorate', '--no-color', '--format=%h %s (%an, %ar)']);
  if (log !== null && log.trim() !== '') sections.push(`Last commits:\n${indent(log.trim())}`);
  const status = git(root, ['status', '--porcelain=v1', '--untracked-files=normal']);
  if (status !== null) {
    const lines = status.split('\n').filter((line) => line.trim() !== '');
    sections.push(
      lines.length === 0
        ? 'Working tree: clean'
        : `Working tree: ${lines.length} file${lines.length === 1 ? '' : 's'} with uncommitted changes`,
    );
  }
  return sections;
}

/**
 * git with settings a hostile repository cannot override into running commands: no fsmonitor
 * hook, no signature check (gpg.program), no pager, no optional locks (so a running editor's git
 * is not disturbed).
 */
function git(root, args) {
  const result = spawnSync(
    'git',
    [
      '-c',
      'core.fsmonitor=false',
      '-c',
      'core.untrackedCache=false',
      '-c',
      'log.showSignature=false',
      '--no-pager',
      '-C',
      root,
      ...args,
    ],
    {
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    },
  );
  if (result.error !== undefined || result.status !== 0) return null;
  return result.stdout;
}

function docSection(root) {
  for (const name of DOCS) {
    let text;
    try {
      text = readFileSync(join(root, name), 'utf8');
    } catch {
      continue;
    }
    const trimmed = text.trim();
    if (trimmed === '') continue;
    const excerpt =
      trimmed.length > MAX_DOC ? `${trimmed.slice(0, MAX_DOC)}\n[... ${name} continues]` : trimmed;
    return [`${name} (excerpt):\n${excerpt}`];
  }
  return [];
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
