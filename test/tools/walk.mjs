#!/usr/bin/env node
// The runtime's walk: which source files one command enters, and in which folders. Prints, for
//   (a) one linked agent event: `hookpm wire claude`, a PreToolUse payload on stdin, with a
//       guard-like plugin installed and enabled whose one handler matches (the session pinned by
//       an earlier SessionStart and one earlier PreToolUse, so caches and the pin are warm), and
//   (b) one `hookpm install <dir> --offline --yes` of a local plugin into an empty home,
// every file of dist/ (the unbundled tsc output, named by its src/**/*.ts) in which some function
// ran, grouped by folder. Method: the command runs from dist/cli/start/entry.js (not the bundle,
// whose one file hides the modules) under NODE_V8_COVERAGE, Node's precise call-count coverage;
// a module counts as entered when any of its functions, its top-level code included, has a
// count above zero in any process of the run (the host and its handler watchdog; the handler's
// own script is not under dist/). bin/hookpm.js, the launcher that picks the bundle or dist/, is
// listed for both walks: it runs first whatever follows. Also prints the stricter figure of
// files in which a function other than the top level ran.
//
//   node test/tools/walk.mjs [root]   (root: a built checkout, default this one; read-only)
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const DIST = join(ROOT, 'dist');
const ENTRY = pathToFileURL(join(DIST, 'cli', 'start', 'entry.js')).href;
/** Runs the CLI's entry from dist/ with `args` as its argv. */
const LAUNCH = `import(${JSON.stringify(ENTRY)}).then(({ main }) => main(['node', 'hookpm', ...JSON.parse(process.env.WALK_ARGS)]))`;

const work = await mkdtemp(join(tmpdir(), 'hookpm-walk-'));
try {
  const plugin = await writeGuardPlugin(join(work, 'guard'));
  const project = join(work, 'project');
  await mkdir(project, { recursive: true });

  // (b) install into an empty home, traced.
  const installHome = join(work, 'home-install');
  const install = await traced(['install', plugin, '--offline', '--yes', '--home', installHome], {
    cwd: project,
  });
  // (a) a home with the guard enabled; SessionStart and one PreToolUse untraced, then one traced.
  const home = join(work, 'home-wire');
  run(['install', plugin, '--offline', '--yes', '--home', home], { cwd: project });
  const sessionId = 'walk-session';
  const common = { session_id: sessionId, transcript_path: join(work, 't.jsonl'), cwd: project };
  const start = { ...common, hook_event_name: 'SessionStart', source: 'startup' };
  const pre = {
    ...common,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf /' },
  };
  const env = { HOOKPM_HOME: home };
  run(['wire', 'claude'], { cwd: project, input: JSON.stringify(start), env });
  run(['wire', 'claude'], { cwd: project, input: JSON.stringify(pre), env });
  const wire = await traced(['wire', 'claude'], { cwd: project, input: JSON.stringify(pre), env });
  if (!wire.stdout.includes('deny')) throw new Error(`the guard did not deny: ${wire.stdout}`);

  report('(a) hookpm wire claude, PreToolUse, one guard handler matching', wire.files);
  report('(b) hookpm install <dir> --offline --yes', install.files);
} finally {
  await rm(work, { recursive: true, force: true });
}

/** A plugin whose one PreToolUse handler (Bash) denies `rm -rf`. */
async function writeGuardPlugin(dir) {
  await mkdir(join(dir, 'hooks'), { recursive: true });
  await writeFile(
    join(dir, 'plugin.json'),
    JSON.stringify({ name: 'walk-guard', version: '1.0.0', description: 'denies rm -rf' }),
  );
  const hooks = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/guard.mjs"' }],
        },
      ],
    },
  };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
  await writeFile(
    join(dir, 'hooks', 'guard.mjs'),
    `let text = '';
process.stdin.on('data', (c) => (text += c));
process.stdin.on('end', () => {
  const command = JSON.parse(text).tool_input?.command ?? '';
  if (command.includes('rm -rf'))
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
      permissionDecision: 'deny', permissionDecisionReason: 'rm -rf' } }));
});
`,
  );
  return dir;
}

function run(args, { cwd, input = '', env = {}, extraEnv = {} }) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', LAUNCH], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env, ...extraEnv, WALK_ARGS: JSON.stringify(args) },
  });
  if (result.status !== 0)
    throw new Error(`hookpm ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  return result;
}

/** Runs `args` under NODE_V8_COVERAGE; the src files of dist/ entered, with a flag: past top level. */
async function traced(args, options) {
  const coverage = await mkdtemp(join(work, 'coverage-'));
  const result = run(args, { ...options, extraEnv: { NODE_V8_COVERAGE: coverage } });
  const files = new Map();
  for (const name of await readdir(coverage)) {
    const { result: scripts } = JSON.parse(await readFile(join(coverage, name), 'utf8'));
    for (const script of scripts) {
      if (!script.url.startsWith('file:')) continue;
      const path = fileURLToPath(script.url);
      if (!path.startsWith(DIST + sep) || !path.endsWith('.js')) continue;
      if (path.startsWith(join(DIST, 'bundle') + sep)) throw new Error(`ran the bundle: ${path}`);
      const ran = script.functions.filter((f) => f.ranges[0].count > 0);
      if (ran.length === 0) continue;
      const src = join('src', relative(DIST, path)).replace(/\.js$/, '.ts').split(sep).join('/');
      const deeper = ran.some((f) => f.functionName !== '' || f.ranges[0].startOffset !== 0);
      files.set(src, (files.get(src) ?? false) || deeper);
    }
  }
  files.set('bin/hookpm.js', true);
  return { stdout: result.stdout, files };
}

function report(title, files) {
  const byFolder = new Map();
  for (const file of [...files.keys()].sort()) {
    const folder = dirname(file)
      .replace(/^src\//, '')
      .replace(/^src$/, '.');
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  const deeper = [...files.values()].filter(Boolean).length;
  console.log(`${title}`);
  console.log(
    `  ${files.size} files in ${byFolder.size} folders (${deeper} with a function past the top level)`,
  );
  for (const [folder, list] of byFolder)
    console.log(`  ${folder} (${list.length}): ${list.map((f) => f.split('/').pop()).join(', ')}`);
  console.log('');
}
