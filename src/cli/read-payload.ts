import { resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { parseJson } from '../json/parse-json.js';
import { readFailureReason, readRegularFile } from '../io/read-regular-file.js';
import { readStdinBytes, STDIN_MAX_BYTES } from './stdio.js';
import { strictUtf8 } from '../text/strict-utf8.js';

function usage(message: string, hint: string, details: Record<string, unknown> = {}): HookpmError {
  return new HookpmError('E_USAGE', message, { ...details, hint });
}

const HINT =
  'Give a JSON object with the event\'s fields, e.g. --payload \'{"tool_name":"Bash","tool_input":{"command":"ls"}}\' (or a file, or - for stdin).';

/**
 * Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): a
 * `--payload` whose first non-blank character is `{` is the JSON itself, as `curl --data '{...}'`
 * takes it (a file whose name starts so is still readable as `./{...}`).
 */
function isInlineJson(spec: string): boolean {
  return spec.trimStart().startsWith('{');
}

/**
 * The `--payload` of `hookpm run` (docs/reference/rules/cli.md#commands): inline JSON
 * (isInlineJson), `-` reads stdin to its end, anything else is a file path resolved against `cwd`;
 * no payload is `{}`, an empty one an error. The text must be UTF-8 holding one JSON object
 * (strict parse: duplicate keys are errors). A file is read only when it is a regular file (after
 * its symlinks) of at most STDIN_MAX_BYTES (registry.md D7): a FIFO or a device is refused at once,
 * never waited on or read without end. Every failure is E_USAGE (exit 2) naming the source and, for
 * a parse error, the line and column.
 */
export async function readPayload(
  spec: string | undefined,
  cwd: string,
): Promise<Record<string, unknown>> {
  if (spec === undefined) return {};
  // An empty path would resolve to `cwd` itself: say what is wrong instead of failing to read it.
  if (spec.trim() === '') throw usage('--payload is empty', HINT);
  const inline = isInlineJson(spec);
  const file = inline ? '<--payload>' : spec === '-' ? '<stdin>' : resolve(cwd, spec);
  let bytes: Buffer | null;
  try {
    bytes = inline
      ? Buffer.from(spec, 'utf8')
      : spec === '-'
        ? readStdinBytes()
        : readRegularFile(file, { maxBytes: STDIN_MAX_BYTES, followSymlink: true });
  } catch (error) {
    const why = readFailureReason(error);
    throw usage(`--payload: cannot read ${file} (${why})`, HINT, { file });
  }
  if (bytes === null || bytes.length > STDIN_MAX_BYTES)
    throw usage(`--payload: ${file} is longer than hookpm reads (${STDIN_MAX_BYTES} bytes)`, HINT, {
      file,
    });
  const text = strictUtf8(bytes, 'drop');
  if (text === null) throw usage(`--payload: ${file} is not valid UTF-8`, HINT, { file });
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    const where = `${file}:${parsed.line}:${parsed.column}`;
    throw usage(`--payload: invalid JSON at ${where}: ${parsed.message}`, HINT, { file });
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw usage(`--payload: expected a JSON object in ${file}, found ${found}`, HINT, { file });
  }
  return value as Record<string, unknown>;
}
