/** A word for the shell: left bare when it is plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_^~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
