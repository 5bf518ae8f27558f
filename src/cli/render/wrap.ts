import { displayWidth, graphemeWidth, graphemes } from './width.js';

/**
 * `text` broken into lines of at most `width` display columns at spaces (runs of spaces between
 * words are kept inside a line and dropped at a break, and only there: a run that does not fit
 * makes one); a word wider than a line is broken where the line ends (beginning where it stands),
 * since nowhere else would do. Every line after the first starts with `indent` spaces. A width of
 * null, or one that leaves fewer than 10 columns after the indent, leaves the text on one line.
 */
export function wrapText(text: string, width: number | null, indent = 0): string[] {
  if (width === null || displayWidth(text) <= width) return [text];
  if (width - indent < 10) return [text];
  const lines: string[] = [];
  const leading = /^ */.exec(text)?.[0] ?? '';
  let line = leading;
  let lineWidth = leading.length;
  let empty = true;
  const flush = (): void => {
    lines.push(line.trimEnd());
    line = ' '.repeat(indent);
    lineWidth = indent;
    empty = true;
  };
  for (const token of text.slice(leading.length).match(/\s+|\S+/g) ?? []) {
    const w = displayWidth(token);
    // Spaces that do not fit end the line, so the break stands for them: dropped with the next
    // word kept on the same line, `ls   -la` would show as `ls-la`.
    if (/^\s/.test(token)) {
      if (empty) continue;
      if (lineWidth + w < width) {
        line += token;
        lineWidth += w;
      } else flush();
      continue;
    }
    // A word wider than any line is broken where it stands; any other starts a line if need be.
    if (lineWidth + w > width && !empty && w <= width - indent) flush();
    if (lineWidth + w <= width) {
      line += token;
      lineWidth += w;
      empty = false;
      continue;
    }
    for (const g of graphemes(token)) {
      const gw = graphemeWidth(g);
      if (lineWidth + gw > width && !empty) flush();
      line += g;
      lineWidth += gw;
      empty = false;
    }
  }
  if (!empty || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/**
 * A line of prose output (`  key:   value`, `    - command x`) wrapped to `width` with a hanging
 * indent under the start of its text: its leading spaces, a list mark (`- `, `+ `, `~ `) and a
 * `key:` label of up to 15 columns and the spaces after it.
 */
export function wrapLine(line: string, width: number | null): string[] {
  if (width === null || displayWidth(line) <= width) return [line];
  const lead = /^(\s*(?:[-+~] )?)(?:([\w ]{1,14}:\s+)(?=\S))?/.exec(line);
  const indent = (lead?.[1]?.length ?? 0) + (lead?.[2]?.length ?? 2);
  return wrapText(line, width, indent);
}
