/**
 * Reads a JSON object whose text was cut short (X7): every member that arrived whole is kept, a
 * string cut in the middle keeps the part that arrived followed by CUT_MARK, and a number or
 * literal cut in the middle is dropped with its member. Returns undefined when the text is not
 * the start of one JSON object (a syntax error, trailing text after a whole object, or nesting
 * deeper than MAX_DEPTH). One pass, no recursion past MAX_DEPTH.
 */
export function readCutJsonObject(text: string): Record<string, unknown> | undefined {
  const reader = new CutReader(text);
  try {
    reader.skipSpace();
    if (text[reader.at] !== '{') return undefined;
    const read = reader.value(0);
    if (read === undefined || read.whole) return undefined;
    return read.value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** What ends a string value the cut went through. */
export const CUT_MARK = '…';

/** Deeper objects or arrays make the text unreadable rather than risk the stack. */
export const MAX_DEPTH = 64;

interface Read {
  value: unknown;
  /** false when the text ended inside this value. */
  whole: boolean;
}

class CutReader {
  at = 0;
  constructor(private readonly text: string) {}

  get ended(): boolean {
    return this.at >= this.text.length;
  }

  skipSpace(): void {
    while (!this.ended && ' \t\n\r'.includes(this.text[this.at] as string)) this.at += 1;
  }

  /** A value, or undefined when the text ends before any usable part of it. */
  value(depth: number): Read | undefined {
    this.skipSpace();
    if (this.ended) return undefined;
    const c = this.text[this.at];
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) throw new Error('too deep');
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"') return this.string();
    return this.scalar();
  }

  private object(depth: number): Read {
    const out: Record<string, unknown> = {};
    this.at += 1;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.ended) return { value: out, whole: false };
      if (this.text[this.at] === '}') {
        this.at += 1;
        return { value: out, whole: true };
      }
      if (!first) {
        this.expect(',');
        this.skipSpace();
        if (this.ended) return { value: out, whole: false };
      }
      const key = this.string();
      if (!key.whole) return { value: out, whole: false };
      this.skipSpace();
      if (this.ended) return { value: out, whole: false };
      this.expect(':');
      const member = this.value(depth);
      if (member !== undefined) Object.defineProperty(out, key.value as string, describe(member));
      if (member === undefined || !member.whole) return { value: out, whole: false };
    }
  }

  private array(depth: number): Read {
    const out: unknown[] = [];
    this.at += 1;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.ended) return { value: out, whole: false };
      if (this.text[this.at] === ']') {
        this.at += 1;
        return { value: out, whole: true };
      }
      if (!first) this.expect(',');
      const item = this.value(depth);
      if (item !== undefined) out.push(item.value);
      if (item === undefined || !item.whole) return { value: out, whole: false };
    }
  }

  private string(): Read {
    this.expect('"');
    let out = '';
    let start = this.at;
    while (!this.ended) {
      const c = this.text[this.at];
      if (c === '"') {
        out += this.text.slice(start, this.at);
        this.at += 1;
        return { value: out, whole: true };
      }
      if (c !== '\\') {
        this.at += 1;
        continue;
      }
      out += this.text.slice(start, this.at);
      const escape = this.text.slice(this.at, this.at + 6);
      const length = escape[1] === 'u' ? 6 : 2;
      if (escape.length < length) {
        this.at = this.text.length;
        return { value: out + CUT_MARK, whole: false };
      }
      out += JSON.parse(`"${escape.slice(0, length)}"`) as string;
      this.at += length;
      start = this.at;
    }
    return { value: out + this.text.slice(start) + CUT_MARK, whole: false };
  }

  /** A number, true, false or null; undefined when the text ends inside it. */
  private scalar(): Read | undefined {
    const start = this.at;
    while (!this.ended && !',}] \t\n\r'.includes(this.text[this.at] as string)) this.at += 1;
    if (this.ended) return undefined;
    return { value: JSON.parse(this.text.slice(start, this.at)) as unknown, whole: true };
  }

  private expect(c: string): void {
    if (this.text[this.at] !== c) throw new Error(`expected ${c}`);
    this.at += 1;
  }
}

/** A plain data property, so a `__proto__` key is kept as data, never as a prototype. */
function describe(read: Read): PropertyDescriptor {
  return { value: read.value, enumerable: true, writable: true, configurable: true };
}
