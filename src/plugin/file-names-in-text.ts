/**
 * The file names a text names, for the consent's documentation files (plugin/code-files.ts): a
 * documentation file that a code file names is code, since that code may read it, source it or
 * run it (`. "$CLAUDE_PLUGIN_ROOT/NOTES.md"`, `readFileSync('rules.md')`).
 *
 * Contract: texts and names are compared as bytes (a text is given as latin1, one character a
 * byte; a name through byteView), without regard to ASCII case, so a file system that ignores
 * case finds the file too. A name counts when it is the last `/`-separated part of a path-like
 * word of the text: a run of letters, digits, `_`, `.`, `-`, `/` and bytes of UTF-8 sequences,
 * dots that end the word dropped. A name with another character in it (a space) counts wherever
 * it appears. Linear in the text, read in pieces of any size. A name the code computes (`'NOTES' +
 * '.md'`, a glob such as `*.md`) is not seen: like code a hook downloads when it runs, it is
 * beyond what comparing the installed files can show.
 */
const WORD = /[A-Za-z0-9_.\-/\x80-\xff]+/g;
const WORD_ONLY = /^[A-Za-z0-9_.\-/\x80-\xff]+$/;
/** The longest word kept whole across pieces: a path's length limit (PATH_MAX) on Linux. */
const MAX_WORD = 4096;

/** `name` (a file's base name) as the scanner compares it: its UTF-8 bytes, lower-cased. */
export function byteView(name: string): string {
  return Buffer.from(name, 'utf8').toString('latin1').toLowerCase();
}

export interface NameScanner {
  /** Reads the next piece of the text (latin1). */
  feed(piece: string): void;
  /** Reads what the last piece left: call once, after the last feed. */
  end(): void;
  /** The wanted names seen so far. */
  readonly found: ReadonlySet<string>;
  /** Whether every wanted name was seen (the rest of the text can be left unread). */
  done(): boolean;
}

/** A scanner for the names of `wanted` (each a byteView). */
export function scanForNames(wanted: ReadonlySet<string>): NameScanner {
  const found = new Set<string>();
  const spaced = [...wanted].filter((name) => !WORD_ONLY.test(name));
  const overlap = Math.max(0, ...spaced.map((name) => name.length - 1));
  let carry = '';
  let tail = '';
  const words = (text: string): void => {
    for (const [word] of text.matchAll(WORD)) {
      const name = word
        .slice(word.lastIndexOf('/') + 1)
        .replace(/\.+$/, '')
        .toLowerCase();
      if (wanted.has(name)) found.add(name);
    }
  };
  const search = (text: string): void => {
    if (spaced.length === 0) return;
    const lower = (tail + text).toLowerCase();
    for (const name of spaced) if (lower.includes(name)) found.add(name);
    tail = lower.slice(Math.max(0, lower.length - overlap));
  };
  return {
    feed(piece) {
      search(piece);
      const text = carry + piece;
      const end = wordEnd(text);
      words(text.slice(0, end));
      carry = text.slice(end);
    },
    end() {
      words(carry);
      carry = '';
    },
    found,
    done: () => found.size === wanted.size,
  };
}

/**
 * Where a piece may end so that no word is cut: after its last character that cannot be part of a
 * word. A word longer than MAX_WORD is cut MAX_WORD characters before the end (its tail, where its
 * base name is, goes on to the next piece), so what is carried over stays bounded.
 */
function wordEnd(text: string): number {
  const stop = Math.max(0, text.length - MAX_WORD);
  for (let i = text.length - 1; i >= stop; i -= 1)
    if (!isWordChar(text.charCodeAt(i))) return i + 1;
  return stop;
}

function isWordChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code >= 0x80 || // a byte of a UTF-8 sequence
    code === 95 || // _
    code === 46 || // .
    code === 45 || // -
    code === 47 // /
  );
}
