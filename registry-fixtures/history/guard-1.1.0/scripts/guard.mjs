#!/usr/bin/env node
// PreToolUse (Bash): denies destructive shell commands with a reason; allows everything else
// silently (exit 0, no output). The payload arrives on stdin and is never executed.
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { allCommands, basename } from './shell-words.mjs';

const input = await readStdin();
let payload;
try {
  payload = JSON.parse(input);
} catch {
  process.exit(0); // not a hook payload: nothing to judge
}
const command = payload?.tool_input?.command;
if (typeof command !== 'string' || command.trim() === '') process.exit(0);

const context = {
  project: resolve(process.env.CLAUDE_PROJECT_DIR || payload.cwd || process.cwd()),
  cwd: resolve(
    typeof payload.cwd === 'string' ? payload.cwd : process.env.CLAUDE_PROJECT_DIR || process.cwd(),
  ),
  home: process.env.HOME || homedir(),
};
const reason = judge(command, context);
if (reason !== null) {
  const output = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `guard: ${reason}. If this is really intended, run it yourself outside the agent.`,
    },
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}
process.exit(0);

/** The reason to deny `text`, or null to allow it. */
function judge(text, ctx) {
  if (/([A-Za-z_:][\w:]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(text))
    return 'this is a fork bomb';
  if (/>\s*\/dev\/(sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|mmcblk\d|disk\d)/.test(text)) {
    return 'writing straight to a disk device destroys its file system';
  }
  for (const words of allCommands(text)) {
    const found = judgeOne(words, ctx);
    if (found !== null) return found;
  }
  return null;
}

function judgeOne(words, ctx) {
  const name = basename(words[0]);
  const args = words.slice(1);
  if (name === 'rm') return judgeRm(args, ctx);
  if (name === 'git') return judgeGit(args);
  if (/^mkfs(\.|$)/.test(name) || name === 'mke2fs') return `\`${name}\` formats a file system`;
  if (name === 'dd') {
    const target = args.find(
      (a) => /^of=\/dev\//.test(a) && !/^of=\/dev\/(null|zero|stdout|stderr|tty)$/.test(a),
    );
    if (target !== undefined) return `\`dd ${target}\` overwrites a device`;
  }
  if (name === 'chmod') {
    const recursive = args.some((a) => a === '--recursive' || /^-[a-zA-Z]*R/.test(a));
    const open = args.some((a) => /^0?777$/.test(a) || /^[ugoa]*\+rwx$/.test(a));
    const target = operands(args).find((t) => dangerousTarget(t, ctx) !== null);
    if (recursive && open && target !== undefined) {
      return `\`chmod -R 777 ${target}\` opens up ${dangerousTarget(target, ctx)}`;
    }
  }
  return null;
}

function judgeRm(args, ctx) {
  if (args.includes('--no-preserve-root'))
    return '`rm --no-preserve-root` can delete the whole file system';
  const recursive = args.some((a) => a === '--recursive' || /^-[a-zA-Z]*[rR]/.test(a));
  if (!recursive) return null;
  for (const target of operands(args)) {
    const what = dangerousTarget(target, ctx);
    if (what !== null) return `\`rm -r ${target}\` would delete ${what}`;
  }
  return null;
}

function judgeGit(args) {
  let i = 0;
  while (i < args.length && args[i].startsWith('-'))
    i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === 'push') {
    const force = rest.some((a) => a === '--force' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a));
    const plusRef = operands(rest).some((a) => a.startsWith('+'));
    if (force || plusRef)
      return '`git push --force` rewrites shared history (use --force-with-lease if you must)';
  }
  if (sub === 'reset' && rest.includes('--hard'))
    return '`git reset --hard` throws away uncommitted work';
  return null;
}

function operands(args) {
  const out = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (!options || !a.startsWith('-')) out.push(a);
  }
  return out.filter((a) => !/^[<>]/.test(a));
}

/** What deleting `target` would hit, or null when it stays inside the project (or a temp dir). */
function dangerousTarget(target, ctx) {
  const t = target.length > 1 ? target.replace(/\/+$/, '') : target;
  if (t === '/' || t === '/*' || /^\/+\*?$/.test(t)) return 'the whole file system';
  if (/^(~|\$HOME|\$\{HOME\})(\/\*?)?$/.test(t)) return 'your home directory';
  if (['*', '.', './*', '.*', '..', '../*', '../'].includes(t))
    return 'the whole working directory or its parent';
  // unknown variable: cannot judge
  if (/^\$[A-Za-z_{]/.test(t) && !/^\$(\{HOME\}|HOME)\//.test(t)) return null;
  const expanded = t.replace(/^(~|\$HOME|\$\{HOME\})(?=\/)/, ctx.home);
  const path = resolve(ctx.cwd, expanded.replace(/\/\*$/, ''));
  if (isWithin(ctx.project, path)) return 'the whole project';
  if (isWithin(path, ctx.project)) return null;
  // An absolute path written into a temp directory (after resolving `..`) is scratch space.
  const tempRoots = ['/tmp', '/var/tmp', tmpdir()];
  if (t.startsWith('/') && tempRoots.some((root) => path !== root && isWithin(path, root))) {
    return null;
  }
  return `${path}, outside the project`;
}

/** True when `inner` is `outer` or below it. */
function isWithin(inner, outer) {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
