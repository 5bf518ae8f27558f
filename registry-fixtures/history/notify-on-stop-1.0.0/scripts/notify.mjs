#!/usr/bin/env node
// Stop: tells you the agent has finished its turn. Tries, in order: notify-send (Linux desktops),
// osascript (macOS), a terminal bell on /dev/tty, and finally a line appended to
// $CLAUDE_PLUGIN_DATA/notifications.log. It never blocks the stop (no output, exit 0) and stays
// quiet while a Stop continuation is running (`stop_hook_active`), when the turn is not really over.
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, delimiter, join } from 'node:path';

const TITLE = 'Agent finished';

try {
  const payload = JSON.parse(await readStdin());
  if (payload?.stop_hook_active !== true) notify(messageFor(payload));
} catch (error) {
  process.stderr.write(
    `notify-on-stop: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
process.exit(0);

function messageFor(payload) {
  const project = basename(process.env.CLAUDE_PROJECT_DIR || payload?.cwd || process.cwd());
  const last =
    typeof payload?.last_assistant_message === 'string' ? payload.last_assistant_message : '';
  // Control characters would garble a terminal or a notification: flatten them.
  const summary = last
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 120);
  const message = summary === '' ? `${project}: waiting for you` : `${project}: ${summary}`;
  // Never let the text pass for a command-line option of the notifier.
  return message.replace(/^-+/, '');
}

function notify(message) {
  const methods = [desktopLinux, desktopMac, terminalBell, logFile];
  for (const method of methods) {
    if (method(message)) return;
  }
}

function desktopLinux(message) {
  const tool = onPath('notify-send');
  if (tool === null) return false;
  return run(tool, ['--app-name=hookpm', '--', TITLE, message]);
}

function desktopMac(message) {
  const tool = onPath('osascript');
  if (tool === null) return false;
  // The message is passed as an argument, never spliced into the AppleScript source.
  const script = [
    'on run argv',
    'display notification (item 1 of argv) with title (item 2 of argv)',
    'end run',
  ];
  return run(tool, [...script.flatMap((line) => ['-e', line]), message, TITLE]);
}

function terminalBell() {
  let fd;
  try {
    fd = openSync('/dev/tty', 'w');
    writeSync(fd, '\u0007');
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function logFile(message) {
  const dir = process.env.CLAUDE_PLUGIN_DATA || process.env.PLUGIN_DATA;
  if (!dir) return false;
  mkdirSync(dir, { recursive: true });
  appendFileSync(
    join(dir, 'notifications.log'),
    `${new Date().toISOString()} ${TITLE}: ${message}\n`,
  );
  return true;
}

function run(tool, args) {
  const result = spawnSync(tool, args, { stdio: 'ignore', timeout: 5_000 });
  return result.error === undefined && result.status === 0;
}

function onPath(tool) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, tool), constants.X_OK);
      if (statSync(join(dir, tool)).isFile()) return join(dir, tool);
    } catch {
      // not here
    }
  }
  return null;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
