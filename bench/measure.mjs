/** Timing helpers for bench/*.bench.mjs: medians over repetitions, after warm-up runs. */

/** Median milliseconds of one call of `fn`, over `reps` runs after `warmup` runs. */
export function medianMs(fn, { reps = 21, warmup = 5 } = {}) {
  for (let i = 0; i < warmup; i += 1) fn();
  const times = [];
  for (let i = 0; i < reps; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Median milliseconds per call for calls too fast to time singly: `batch` calls per sample. */
export function medianPerCallMs(fn, { batch = 100, reps = 21, warmup = 5 } = {}) {
  const run = () => {
    for (let i = 0; i < batch; i += 1) fn();
  };
  return medianMs(run, { reps, warmup }) / batch;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
