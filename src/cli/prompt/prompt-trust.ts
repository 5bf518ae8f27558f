import { createReadline } from './readline.js';
import type { TrustAnswer } from '../../ops/run/resolve-trust.js';
import type { ProjectHook, ProjectHooksSummary } from '../../ops/run/project-hooks-summary.js';
import { escapeControl } from '../render/render.js';
import { interrupted } from './interrupted.js';

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

const ANSWERS: Readonly<Record<string, TrustAnswer | 'show'>> = {
  '1': 'once',
  o: 'once',
  once: 'once',
  '2': 'always',
  a: 'always',
  always: 'always',
  '3': 'deny',
  d: 'deny',
  deny: 'deny',
  '4': 'cancel',
  c: 'cancel',
  cancel: 'cancel',
  '5': 'show',
  s: 'show',
  show: 'show',
};

/** Up to this many hooks are listed in the question; more get a count and a "Show them" choice. */
export const LISTED_HOOKS = 8;

const EMPTY: ProjectHooksSummary = { status: 'read', hooks: [] };

/**
 * engine.md T4: the workspace trust prompt, on stdin/stderr (stdout stays for data). Shows the file
 * path and what it would load (docs/guides/projects.md#project-hooks-and-workspace-trust: each
 * hook's event, matcher and command, or for many a count and choice 5, Show them), control
 * characters escaped; asks again on an unknown answer; end of input (Ctrl+D) and Esc are Cancel;
 * Ctrl+C ends the line and rejects with E_CANCELLED marked as interrupted (exit 130). Implements
 * ops' AskTrust.
 */
export function promptTrust(
  file: string,
  summary: ProjectHooksSummary = EMPTY,
  streams: PromptStreams = { input: process.stdin, output: process.stderr },
): Promise<TrustAnswer> {
  const rl = createReadline({ input: streams.input, output: streams.output });
  const many = summary.status === 'read' && summary.hooks.length > LISTED_HOOKS;
  const choices = `  1) Allow once   2) Always allow   3) Deny   4) Cancel${many ? '   5) Show them' : ''}`;
  const last = many ? 5 : 4;
  streams.output.write(
    [
      `This workspace has project hooks: ${escapeControl(file)}`,
      ...summaryLines(summary),
      choices,
      '',
    ].join('\n'),
  );
  return new Promise((resolve, reject) => {
    let answered = false;
    const finish = (fn: () => void): void => {
      if (answered) return;
      answered = true;
      rl.close();
      fn();
    };
    const ask = (): void => {
      streams.output.write(`Choice [1-${last}]: `);
    };
    rl.on('line', (line) => {
      const answer = ANSWERS[line.trim().toLowerCase()];
      if (answer === 'show' && many && summary.status === 'read') {
        streams.output.write(`${hookLines(summary.hooks).join('\n')}\n${choices}\n`);
        ask();
      } else if (answer !== undefined && answer !== 'show') finish(() => resolve(answer));
      else {
        streams.output.write(`Please answer ${many ? '1, 2, 3, 4 or 5' : '1, 2, 3 or 4'}.\n`);
        ask();
      }
    });
    // On a terminal readline emits keypress events on the input: Esc cancels, as Ctrl+D does.
    const onKey = (_text: unknown, key: { name?: string } | undefined): void => {
      if (key?.name === 'escape') finish(() => resolve('cancel'));
    };
    streams.input.on('keypress', onKey);
    rl.on('close', () => streams.input.removeListener('keypress', onKey));
    rl.on('SIGINT', () =>
      finish(() => {
        streams.output.write('\n');
        reject(
          interrupted(`cancelled at the workspace trust question for ${file}; nothing was loaded`, {
            file,
          }),
        );
      }),
    );
    rl.on('close', () => finish(() => resolve('cancel')));
    ask();
  });
}

/** What the file would run: each hook (a few), or how many on which events (many). */
function summaryLines(summary: ProjectHooksSummary): string[] {
  if (summary.status === 'unreadable')
    return [
      `It cannot be read now (${escapeControl(summary.reason)}); loading it reports why.`,
      'Its hooks would run commands on your machine with your permissions. Load them?',
    ];
  const { hooks } = summary;
  if (hooks.length === 0) return ['It declares no hooks. Load it?'];
  const intro = 'Loading it runs these commands on your machine, with your permissions:';
  if (hooks.length <= LISTED_HOOKS) return [intro, ...hookLines(hooks), 'Load them?'];
  const events = [...new Set(hooks.map((h) => h.event))];
  return [
    `It declares ${hooks.length} hooks on ${events.length === 1 ? 'the event' : 'the events'} ${escapeControl(events.join(', '))}; they run commands on your machine, with your permissions.`,
    'Load them? (5 shows them)',
  ];
}

function hookLines(hooks: readonly ProjectHook[]): string[] {
  const labels = hooks.map((h) => `${h.event}${h.matcher === null ? '' : ` (${h.matcher})`}`);
  const width = Math.max(...labels.map((l) => l.length));
  return hooks.map((h, i) => escapeControl(`  ${(labels[i] ?? '').padEnd(width)}  ${h.command}`));
}
