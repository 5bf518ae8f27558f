import { createReadline } from './readline.js';
import type { TrustAnswer } from '../../ops/run/resolve-trust.js';
import { escapeControl } from '../render/render.js';

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

const ANSWERS: Readonly<Record<string, TrustAnswer>> = {
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
};

/**
 * engine.md T4: the workspace trust prompt, on stdin/stderr (stdout stays for data). Shows the file
 * path with control characters escaped; asks again on an unknown answer; end of input (Ctrl+D),
 * Ctrl+C and Esc are Cancel. Implements ops' AskTrust.
 */
export function promptTrust(
  file: string,
  streams: PromptStreams = { input: process.stdin, output: process.stderr },
): Promise<TrustAnswer> {
  const rl = createReadline({ input: streams.input, output: streams.output });
  streams.output.write(
    [
      `This workspace has project hooks: ${escapeControl(file)}`,
      'They run commands on your machine with your permissions. Load them?',
      '  1) Allow once   2) Always allow   3) Deny   4) Cancel',
      '',
    ].join('\n'),
  );
  return new Promise((resolve) => {
    let answered = false;
    const finish = (answer: TrustAnswer): void => {
      if (answered) return;
      answered = true;
      rl.close();
      resolve(answer);
    };
    const ask = (): void => {
      streams.output.write('Choice [1-4]: ');
    };
    rl.on('line', (line) => {
      const answer = ANSWERS[line.trim().toLowerCase()];
      if (answer !== undefined) finish(answer);
      else {
        streams.output.write(`Please answer 1, 2, 3 or 4.\n`);
        ask();
      }
    });
    // On a terminal readline emits keypress events on the input: Esc cancels, as Ctrl+C and Ctrl+D do.
    const onKey = (_text: unknown, key: { name?: string } | undefined): void => {
      if (key?.name === 'escape') finish('cancel');
    };
    streams.input.on('keypress', onKey);
    rl.on('close', () => streams.input.removeListener('keypress', onKey));
    rl.on('SIGINT', () => finish('cancel'));
    rl.on('close', () => finish('cancel'));
    ask();
  });
}
