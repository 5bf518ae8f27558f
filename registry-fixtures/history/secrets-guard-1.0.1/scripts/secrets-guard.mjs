#!/usr/bin/env node
// PreToolUse (Read|Edit|Write|MultiEdit|Bash): keeps secret files out of the conversation. Denies
// reading or writing .env files, private keys and certificates, SSH private keys and credential
// files, and shell commands that print, copy or send them. Template files (.env.example,
// .env.sample, .env.template) and public keys (*.pub) stay allowed. Silent (exit 0, no output)
// for everything else.
import { basename, eachCommand } from './shell-words.mjs';

/** The most characters of a path a reason quotes, so the answer stays far below the output limit. */
const SHOWN_CHARS = 120;

const READERS = new Set([
  'cat',
  'tac',
  'less',
  'more',
  'most',
  'head',
  'tail',
  'bat',
  'batcat',
  'nl',
  'strings',
  'xxd',
  'od',
  'hexdump',
  'base64',
  'base32',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'awk',
  'gawk',
  'sed',
  'cut',
  'sort',
  'uniq',
  'diff',
  'cp',
  'mv',
  'scp',
  'rsync',
  'curl',
  'wget',
  'source',
  '.',
  'vi',
  'vim',
  'nvim',
  'nano',
  'emacs',
  'code',
  'open',
  'xdg-open',
  'tee',
  'dd',
  'openssl',
  'jq',
  'yq',
  'xargs',
  'zip',
  'tar',
]);

let payload;
try {
  payload = JSON.parse(await readStdin());
} catch {
  process.exit(0); // not a hook payload: nothing to judge
}
const reason = judge(payload?.tool_name, payload?.tool_input ?? {});
if (reason !== null) {
  const output = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `secrets-guard: ${reason}. Secrets stay out of the conversation; ask the user for the value you need, or use a template such as .env.example.`,
    },
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}
process.exit(0);

function judge(tool, input) {
  if (tool === 'Bash')
    return typeof input.command === 'string' ? judgeCommand(input.command) : null;
  const path = input.file_path;
  if (typeof path !== 'string') return null;
  const kind = secretKind(path);
  if (kind === null) return null;
  const verb = tool === 'Read' ? 'reading' : 'writing';
  return `${verb} ${shown(path)} is blocked: it looks like ${kind}`;
}

function judgeCommand(text) {
  return eachCommand(text, (words) => {
    const name = basename(words[0]);
    for (let i = 1; i < words.length; i += 1) {
      const word = words[i];
      const redirect = /^[<>]/.test(word);
      const target = redirect ? words[i + 1] : word;
      if (target === undefined || (!redirect && !READERS.has(name))) continue;
      const kind = secretKind(operandPath(target));
      if (kind !== null)
        return `\`${shown(name)}\` on ${shown(target)} is blocked: it looks like ${kind}`;
    }
    return null;
  });
}

/** `text` cut to its head and tail around an ellipsis when longer than SHOWN_CHARS. */
function shown(text) {
  if (text.length <= SHOWN_CHARS) return text;
  const tail = Math.floor(SHOWN_CHARS / 3);
  return `${text.slice(0, SHOWN_CHARS - tail - 1)}…${text.slice(-tail)}`;
}

/** `text` without its trailing slashes (a loop: a pattern would backtrack over each run). */
function trimTrailingSlashes(text) {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end -= 1;
  return text.slice(0, end);
}

/** The path inside `--data=@.env`, `if=.env`, `@.env`; globs lose their wildcards. */
function operandPath(word) {
  let path = word;
  if (/^-{1,2}[A-Za-z-]+=/.test(path) || /^(if|of)=/.test(path))
    path = path.slice(path.indexOf('=') + 1);
  return path.replace(/^@/, '').replace(/[*?[\]]/g, '');
}

/** What kind of secret the file name suggests, or null. */
function secretKind(path) {
  const name = basename(trimTrailingSlashes(path)).toLowerCase();
  if (name === '') return null;
  if (/^\.env(\.|$)/.test(name) || /\.env$/.test(name)) {
    return /\.(example|sample|template|dist|defaults)$/.test(name)
      ? null
      : 'a .env file with secrets';
  }
  if (/\.(pem|key|p12|pfx|jks|keystore)$/.test(name)) {
    return 'a private key or certificate';
  }
  if (/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([._-].*)?$/.test(name) && !name.endsWith('.pub')) {
    return 'an SSH private key';
  }
  if (
    /^\.?credentials(\.(json|ya?ml|toml|ini|xml|csv))?$/.test(name) ||
    /\.credentials$/.test(name) ||
    /^client_secret.*\.json$/.test(name) ||
    ['.netrc', '_netrc', '.pgpass', '.git-credentials', '.htpasswd'].includes(name)
  ) {
    return 'a credentials file';
  }
  return null;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
