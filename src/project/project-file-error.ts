import { HookpmError } from '../errors.js';
import { describeValue } from '../json/describe-value.js';
import { parseJson } from '../json/parse-json.js';

/**
 * E_PROJECT_FILE: a project file (hookpm.json or hookpm.lock) that cannot be used as it is. Such a
 * file is never rewritten: every command that would write it fails first.
 */
export function projectFileError(file: string, reason: string): HookpmError {
  return new HookpmError('E_PROJECT_FILE', `${file}: ${reason}`, {
    file,
    hint: `Fix ${file} by hand (or restore it from version control); hookpm does not rewrite a file it cannot read.`,
  });
}

/** The JSON value of a project file's text (strict: duplicate keys refused), or E_PROJECT_FILE. */
export function parseProjectJson(text: string, file: string): Record<string, unknown> {
  const parsed = parseJson(text, file);
  if (!parsed.ok)
    throw projectFileError(
      file,
      `${parsed.message} at line ${parsed.line}, column ${parsed.column}`,
    );
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw projectFileError(file, 'the document is not a JSON object');
  return value as Record<string, unknown>;
}

/** Own keys that are not among `known`, as E_PROJECT_FILE naming the first, cut short (describeValue). */
export function refuseUnknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  where: string,
  file: string,
): void {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw projectFileError(file, `${where} has the unknown key ${describeValue(unknown)}`);
}

/** A JSON object (not an array, not null) with a null prototype's safety: `__proto__` refused. */
export function objectAt(value: unknown, where: string, file: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw projectFileError(file, `${where} is not an object`);
  if (Object.hasOwn(value, '__proto__'))
    throw projectFileError(file, `${where} has the key "__proto__"`);
  return value as Record<string, unknown>;
}
