/**
 * The UTC time of epoch milliseconds `ms` in ISO 8601, exactly as `new Date(ms).toISOString()`
 * gives it for the years 0-9999. Built from the UTC fields: a process's first toISOString costs
 * about 0.2 ms (measured on Node 20 and 24), a fifth of what logging adds to a linked agent event
 * (bench/link.bench.mjs).
 */
export function logTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}` +
    `.${pad(d.getUTCMilliseconds(), 3)}Z`
  );
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
