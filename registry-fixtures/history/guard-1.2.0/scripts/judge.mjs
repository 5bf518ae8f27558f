// What guard denies, apart from reading the payload and printing the answer (guard.mjs). Every
// check is linear in the length of the command line: no pattern can backtrack over a long run of
// one character, and nothing is re-split or copied per word, so a command of 1 MB is judged in
// well under 100 ms. A reason quotes at most SHOWN_CHARS of any word and is at most REASON_CHARS
// long, so the answer always fits far below the engine's 100,000-byte output limit.
import { tmpdir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { basename, eachCommand, isShortOptions } from './shell-words.mjs';

/** The most characters of one word (a path, a target) a reason quotes. */
export const SHOWN_CHARS = 120;
/** The longest reason guard gives, in characters. */
export const REASON_CHARS = 600;
/**
 * The most simple commands guard judges in one line. No agent writes a line with more; a line
 * that has more is denied unread rather than let through unjudged.
 */
export const MAX_COMMANDS = 10_000;
/** Linux's PATH_MAX: the longest path guard resolves. */
const PATH_MAX = 4096;

const ADVICE = 'If this is really intended, run it yourself outside the agent.';

/**
 * The PreToolUse answer denying `command`, or null to allow it silently.
 * @param {string} command
 * @param {{project: string, cwd: string, home: string}} ctx
 */
export function decide(command, ctx) {
  const reason = judge(command, ctx);
  if (reason === null) return null;
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: capText(`guard: ${reason}. ${ADVICE}`, REASON_CHARS),
    },
  };
}

/** The reason to deny `text`, or null to allow it. */
export function judge(text, ctx) {
  if (hasForkBomb(text)) return 'this is a fork bomb';
  const scope = { ...ctx, cwdDepth: depthBelow(ctx.cwd, ctx.project) };
  let count = 0;
  return eachCommand(text, (words) => {
    count += 1;
    if (count > MAX_COMMANDS)
      return `the line holds over ${MAX_COMMANDS} commands, too many to check`;
    return judgeRedirects(words) ?? judgeOne(words, scope);
  });
}

/** `text` cut to at most `max` characters: its head and tail around an ellipsis. */
export function capText(text, max) {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 3);
  const head = max - tail - 1;
  return `${wholeChars(text.slice(0, head))}…${wholeChars(text.slice(text.length - tail))}`;
}

/** A word as a reason quotes it: at most SHOWN_CHARS characters. */
function shown(word) {
  return capText(word, SHOWN_CHARS);
}

/** `text` without a surrogate half left at either end by a cut. */
function wholeChars(text) {
  let start = 0;
  let end = text.length;
  if (end > 0 && isLowSurrogate(text.charCodeAt(0))) start = 1;
  if (end > start && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `[A-Za-z_:]` */
function isNameStart(code) {
  return isLetter(code) || code === 95 || code === 58;
}

/** `[\w:]` */
function isNameChar(code) {
  return isNameStart(code) || (code >= 48 && code <= 57);
}

/**
 * A function that pipes itself into itself in the background, such as `:(){ :|:& };:` or
 * `bomb() { bomb | bomb & }; bomb`: a definition `name ( ) {` whose body (up to the next `}`)
 * holds `name | name &`. One pass to make tokens, one to find the self-pipes, one to find the
 * definitions; each definition looks its name up, so the whole check is linear.
 */
export function hasForkBomb(text) {
  if (!text.includes('|') || !text.includes('{')) return false;
  const tokens = tokenize(text);
  /** @type {Map<string, number[]>} token indexes of `name | name &`, ascending */
  const selfPipes = new Map();
  for (let i = 0; i + 3 < tokens.length; i += 1) {
    const t = tokens[i];
    if (t.name && tokens[i + 1].text === '|' && tokens[i + 2].text === t.text) {
      if (tokens[i + 2].name && tokens[i + 3].text === '&') {
        const list = selfPipes.get(t.text);
        if (list === undefined) selfPipes.set(t.text, [i]);
        else list.push(i);
      }
    }
  }
  if (selfPipes.size === 0) return false;
  const nextClose = new Array(tokens.length + 1);
  nextClose[tokens.length] = tokens.length;
  for (let i = tokens.length - 1; i >= 0; i -= 1)
    nextClose[i] = tokens[i].text === '}' ? i : nextClose[i + 1];
  for (let i = 0; i + 3 < tokens.length; i += 1) {
    const t = tokens[i];
    if (!t.name || tokens[i + 1].text !== '(' || tokens[i + 2].text !== ')') continue;
    if (tokens[i + 3].text !== '{') continue;
    const list = selfPipes.get(t.text);
    if (list === undefined) continue;
    const body = i + 4;
    const first = firstAtLeast(list, body);
    if (first !== undefined && first + 3 < nextClose[body]) return true;
  }
  return false;
}

/** The first element of the ascending `list` that is >= `value`. */
function firstAtLeast(list, value) {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid] < value) low = mid + 1;
    else high = mid;
  }
  return list[low];
}

/** Names (`[A-Za-z_:][\w:]*`), runs of other word characters, and single punctuation marks. */
function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13) {
      i += 1;
    } else if (isNameChar(code)) {
      const start = i;
      while (i < text.length && isNameChar(text.charCodeAt(i))) i += 1;
      tokens.push({ text: text.slice(start, i), name: isNameStart(code) });
    } else {
      tokens.push({ text: text[i], name: false });
      i += 1;
    }
  }
  return tokens;
}

const DISK = /^\/dev\/(sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|mmcblk\d|disk\d)/;

/** A redirection (`>`, `>>`, `&>`, `>&`) into a disk device. */
function judgeRedirects(words) {
  for (let i = 0; i + 1 < words.length; i += 1) {
    const op = words[i];
    if (op.includes('>') && /^[<>&|]+$/.test(op) && DISK.test(words[i + 1])) {
      return 'writing straight to a disk device destroys its file system';
    }
  }
  return null;
}

function judgeOne(words, ctx) {
  const name = basename(words[0]);
  const args = words.slice(1);
  if (name === 'rm') return judgeRm(args, ctx);
  if (name === 'git') return judgeGit(args);
  if (/^mkfs(\.|$)/.test(name) || name === 'mke2fs')
    return `\`${shown(name)}\` formats a file system`;
  if (name === 'dd') {
    const target = args.find(
      (a) => a.startsWith('of=/dev/') && !/^of=\/dev\/(null|zero|stdout|stderr|tty)$/.test(a),
    );
    if (target !== undefined) return `\`dd ${shown(target)}\` overwrites a device`;
  }
  if (name === 'chmod') {
    const recursive = args.some((a) => a === '--recursive' || optionLettersHave(a, 'R'));
    const open = args.some((a) => /^0?777$/.test(a) || /^[ugoa]*\+rwx$/.test(a));
    if (!recursive || !open) return null;
    for (const target of operands(args)) {
      const what = dangerousTarget(target, ctx);
      if (what !== null) return `\`chmod -R 777 ${shown(target)}\` opens up ${what}`;
    }
  }
  return null;
}

function judgeRm(args, ctx) {
  if (args.includes('--no-preserve-root'))
    return '`rm --no-preserve-root` can delete the whole file system';
  const recursive = args.some((a) => a === '--recursive' || optionLettersHave(a, 'rR'));
  if (!recursive) return null;
  for (const target of operands(args)) {
    const what = dangerousTarget(target, ctx);
    if (what !== null) return `\`rm -r ${shown(target)}\` would delete ${what}`;
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
    const force = rest.some((a) => a === '--force' || (isShortOptions(a) && a.includes('f')));
    const plusRef = operands(rest).some((a) => a.startsWith('+'));
    if (force || plusRef)
      return '`git push --force` rewrites shared history (use --force-with-lease if you must)';
  }
  if (sub === 'reset' && rest.includes('--hard'))
    return '`git reset --hard` throws away uncommitted work';
  return null;
}

/**
 * Whether `word` starts with `-` and a run of letters holding one of `letters` (`-rf`, `-Rv`,
 * `-fr.`): a scan, where a pattern such as /^-[a-zA-Z]*[rR]/ would backtrack.
 */
function optionLettersHave(word, letters) {
  if (word[0] !== '-') return false;
  for (let i = 1; i < word.length; i += 1) {
    if (letters.includes(word[i])) return true;
    if (!isLetter(word.charCodeAt(i))) return false;
  }
  return false;
}

function isLetter(code) {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function operands(args) {
  const out = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (!options || !a.startsWith('-')) out.push(a);
  }
  return out.filter((a) => !a.startsWith('<') && !a.startsWith('>'));
}

/** `text` without its trailing slashes (a loop: a pattern would backtrack over each run). */
function trimTrailingSlashes(text) {
  let end = text.length;
  while (end > 1 && text.charCodeAt(end - 1) === 47) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** How many segments `dir` lies below `root`, or -1 when it is not `root` or below it. */
function depthBelow(dir, root) {
  if (!isWithin(dir, root)) return -1;
  const rel = relative(root, dir);
  return rel === '' ? 0 : rel.split(sep).length;
}

/**
 * The depth below the project of `path` (segments separated by `/`) read from `depth`, or -1
 * when it climbs out of the project on the way. `.` and empty segments stay; `..` climbs; a last
 * `*` is dropped (it deletes what is in the directory before it). A scan, with no copy.
 */
function walkDepth(path, depth) {
  let d = depth;
  let start = 0;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const length = end - start;
    const isLast = end === path.length;
    if (length === 2 && path[start] === '.' && path[start + 1] === '.') {
      d -= 1;
      if (d < 0) return -1;
    } else if (length > 0 && !(length === 1 && path[start] === '.')) {
      if (!(isLast && length === 1 && path[start] === '*')) d += 1;
    }
    start = end + 1;
  }
  return d;
}

/**
 * Whether `t` stays strictly below the project without leaving it, read without resolving: a
 * relative path from a working directory inside the project, or an absolute one under it.
 */
function strictlyInside(t, ctx) {
  if (t.startsWith('~') || t.startsWith('$')) return false;
  if (t.startsWith('/')) {
    const prefix = `${ctx.project}/`;
    return t.startsWith(prefix) && walkDepth(t.slice(prefix.length), 0) > 0;
  }
  return ctx.cwdDepth >= 0 && walkDepth(t, ctx.cwdDepth) > 0;
}

/** What deleting `target` would hit, or null when it stays inside the project (or a temp dir). */
function dangerousTarget(target, ctx) {
  const t = target.length > 1 ? trimTrailingSlashes(target) : target;
  if (/^\/+\*?$/.test(t)) return 'the whole file system';
  if (/^(~|\$HOME|\$\{HOME\})(\/\*?)?$/.test(t)) return 'your home directory';
  if (['*', '.', './*', '.*', '..', '../*', '../'].includes(t))
    return 'the whole working directory or its parent';
  // Inside the project on every step: no path to resolve.
  if (strictlyInside(t, ctx)) return null;
  // Longer than PATH_MAX: no system call takes it whole, and resolving it is not worth the time.
  if (t.length > PATH_MAX) return `a path of ${t.length} characters, too long to check`;
  // unknown variable: cannot judge
  if (/^\$[A-Za-z_{]/.test(t) && !/^\$(\{HOME\}|HOME)\//.test(t)) return null;
  const expanded = t.replace(/^(~|\$HOME|\$\{HOME\})(?=\/)/, ctx.home);
  const path = resolve(ctx.cwd, expanded.endsWith('/*') ? expanded.slice(0, -2) : expanded);
  if (isWithin(ctx.project, path)) return 'the whole project';
  if (isWithin(path, ctx.project)) return null;
  // An absolute path written into a temp directory (after resolving `..`) is scratch space.
  const tempRoots = ['/tmp', '/var/tmp', tmpdir()];
  if (t.startsWith('/') && tempRoots.some((root) => path !== root && isWithin(path, root))) {
    return null;
  }
  return `${shown(path)}, outside the project`;
}

/** True when `inner` is `outer` or below it. */
function isWithin(inner, outer) {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
