/**
 * Runs an example plugin's handler the way the engine would: the argv from its hooks/hooks.json
 * with ${CLAUDE_PLUGIN_ROOT} replaced, the payload as JSON on stdin, the plugin variables in the
 * environment, a PATH holding only the tools a test puts there. The plugin is copied into a temp
 * directory whose name contains a space, so quoting mistakes show up.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const PLUGINS_DIR = resolve(
  fileURLToPath(import.meta.url),
  '../../../registry-fixtures/plugins',
);

export interface HookSandbox {
  base: string;
  root: string;
  data: string;
  project: string;
  home: string;
  bin: string;
  /** Puts an executable `name` on the sandbox PATH: a symlink to `target`, or a sh script body. */
  addTool(name: string, target: { link: string } | { script: string }): void;
  cleanup(): void;
}

export function makeSandbox(plugin: string): HookSandbox {
  const base = mkdtempSync(join(tmpdir(), 'hookpm-example-'));
  const root = join(base, 'plugin root', plugin);
  const data = join(base, 'data');
  const project = join(base, 'project');
  const home = join(base, 'home');
  const bin = join(base, 'bin');
  cpSync(join(PLUGINS_DIR, plugin), root, { recursive: true });
  for (const dir of [data, project, home, bin]) mkdirSync(dir, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  return {
    base,
    root,
    data,
    project,
    home,
    bin,
    addTool(name, target) {
      const path = join(bin, name);
      if ('link' in target) symlinkSync(target.link, path);
      else writeFileSync(path, `#!/bin/sh\n${target.script}\n`, { mode: 0o755 });
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

interface HooksFile {
  hooks: Record<
    string,
    Array<{ matcher?: string; hooks: Array<{ argv: string[]; command: string }> }>
  >;
}

export function readHooksFile(root: string): HooksFile {
  return JSON.parse(readFileSync(join(root, 'hooks', 'hooks.json'), 'utf8')) as HooksFile;
}

/** A payload with the common fields of engine.md X2 plus the event's own fields. */
export function payload(
  event: string,
  cwd: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    session_id: 'sess-0123',
    transcript_path: join(cwd, '.transcript.jsonl'),
    cwd,
    hook_event_name: event,
    permission_mode: 'default',
    ...fields,
  };
}

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or null when stdout is empty. */
  json: any;
}

export async function runHook(
  box: HookSandbox,
  event: string,
  input: Record<string, unknown>,
  options: {
    env?: Record<string, string>;
    detached?: boolean;
    groupIndex?: number;
    rawStdin?: string;
  } = {},
): Promise<HookRun> {
  const group = readHooksFile(box.root).hooks[event]?.[options.groupIndex ?? 0];
  const handler = group?.hooks[0];
  if (handler === undefined) throw new Error(`no ${event} handler in ${box.root}`);
  const argv = handler.argv.map((arg) => arg.split('${CLAUDE_PLUGIN_ROOT}').join(box.root));
  const [program, ...args] = argv;
  if (program === undefined) throw new Error('empty argv');
  const env = {
    PATH: box.bin,
    HOME: box.home,
    HOOKPM_HOME: join(box.base, 'hookpm-home'),
    CLAUDE_PLUGIN_ROOT: box.root,
    PLUGIN_ROOT: box.root,
    CLAUDE_PLUGIN_DATA: box.data,
    PLUGIN_DATA: box.data,
    CLAUDE_PROJECT_DIR: box.project,
    ...options.env,
  };
  const child = spawn(program, args, {
    cwd: typeof input['cwd'] === 'string' ? input['cwd'] : box.project,
    env,
    detached: options.detached ?? true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.rawStdin ?? JSON.stringify(input));
  const code = await new Promise<number | null>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${event} handler did not finish in 20 s; stderr: ${stderr}`));
    }, 20_000);
    child.on('error', fail);
    child.on('close', (exit) => {
      clearTimeout(timer);
      done(exit);
    });
  });
  return { code, stdout, stderr, json: stdout.trim() === '' ? null : JSON.parse(stdout) };
}

/**
 * Registers the hook that removes, after each test, the sandboxes of `plugin` the returned
 * function made; `prepare` runs on each new sandbox (tools a test needs on PATH, say).
 */
export function useSandboxes(
  plugin: string,
  prepare: (box: HookSandbox) => void = () => {},
): () => HookSandbox {
  const boxes: HookSandbox[] = [];
  afterEach(() => {
    for (const box of boxes.splice(0)) box.cleanup();
  });
  return () => {
    const box = makeSandbox(plugin);
    prepare(box);
    boxes.push(box);
    return box;
  };
}
