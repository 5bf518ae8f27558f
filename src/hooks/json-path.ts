/**
 * JSON paths for diagnostics: `<file>:hooks.<Event>[g].hooks[h]` (engine.md C1). A key that is not
 * a plain identifier is written as a JSON string in brackets, so control characters and dots in
 * untrusted keys can neither forge another path nor reach a terminal raw.
 */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const step = IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return base.endsWith(':') && step.startsWith('.') ? base + step.slice(1) : base + step;
}

/** The path of the document itself, to which `childPath` appends keys. */
export function documentPath(file: string): string {
  return `${file}:`;
}
