#!/usr/bin/env node
/**
 * `npm run demo`: a narrated walk-through of hookpm in a throwaway HOME and HOOKPM_HOME. It serves
 * the package's registry-fixtures/ with `hookpm registry serve` on 127.0.0.1 (a random port), adds
 * it as a registry, searches, reviews and installs the guard plugin, then dispatches two
 * PreToolUse events through the engine: `rm -rf /` (denied, with the reason) and `ls` (allowed).
 * Every command is printed with its output. Everything it made is removed at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'hookpm.js');
const FIXTURES = join(ROOT, 'registry-fixtures');
const home = mkdtempSync(join(tmpdir(), 'hookpm-demo-'));
// The demo's registry is on 127.0.0.1: the environment's proxy (registry.md N13) stays out of it.
const direct = [process.env.no_proxy || process.env.NO_PROXY, '127.0.0.1,localhost'].filter(
  Boolean,
);
const env = {
  ...process.env,
  HOME: home,
  HOOKPM_HOME: join(home, 'hookpm'),
  NO_COLOR: '1',
  no_proxy: direct.join(','),
  NO_PROXY: direct.join(','),
};
const bold = (text) => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[0m` : text);

function say(text) {
  process.stdout.write(`\n${bold(`# ${text}`)}\n`);
}

/** Runs `hookpm ...args` (stdin: `input`), printing the command line and everything it printed. */
function hookpm(args, input) {
  const shown = args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ');
  process.stdout.write(`$ ${input === undefined ? '' : `echo '${input}' | `}hookpm ${shown}\n`);
  const run = spawnSync(process.execPath, [BIN, ...args], {
    env,
    cwd: home,
    input,
    encoding: 'utf8',
  });
  if (run.stdout) process.stdout.write(indent(run.stdout));
  if (run.stderr) process.stdout.write(indent(run.stderr));
  if (run.status !== 0) throw new Error(`hookpm ${shown} exited ${run.status}`);
  return run.stdout;
}

function indent(text) {
  return text.replace(/^(?=.)/gm, '  ');
}

/** Starts `hookpm registry serve` and resolves with the URL it prints. */
function serve() {
  process.stdout.write(`$ hookpm registry serve registry-fixtures --json &\n`);
  const child = spawn(process.execPath, [BIN, 'registry', 'serve', FIXTURES, '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`registry serve exited ${code}: ${out}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      try {
        const { url } = JSON.parse(out);
        process.stdout.write(indent(`serving at ${url}\n`));
        child.removeAllListeners('exit');
        resolve({ url, child });
      } catch {
        // The JSON document is not complete yet.
      }
    });
  });
}

const payload = (command) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } });

let server;
const started = Date.now();
try {
  say(
    'A registry is a directory of tarballs and an index.json; serve the bundled one on 127.0.0.1',
  );
  server = await serve();
  say('Add it under the name `demo` (hookpm fetches and validates its index first)');
  hookpm(['registry', 'add', 'demo', server.url]);
  say('Search every registry for "guard"');
  hookpm(['search', 'guard']);
  say('Review exactly which hooks guard would run, before installing it');
  hookpm(['review', 'guard@demo']);
  say(
    'Install it: the tarball is verified (sha512), scanned, extracted and checked against the index',
  );
  hookpm(['install', 'guard@demo', '--yes']);
  hookpm(['list']);
  say('An agent is about to run `rm -rf /`: the PreToolUse event goes through the engine');
  hookpm(['run', 'PreToolUse', '--payload', '-'], payload('rm -rf /'));
  say('And `ls`, which guard lets through');
  hookpm(['run', 'PreToolUse', '--payload', '-'], payload('ls'));
  say(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s; cleaning up ${home}`);
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  if (server !== undefined && server.child.exitCode === null) {
    // The server writes its code cache under `home` as it exits: wait for it before removing.
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  rmSync(home, { recursive: true, force: true, maxRetries: 3 });
}
