// Preloaded (NODE_OPTIONS=--require) by the scale benchmarks into every Node process of a run:
// at exit, appends the process's CPU time (user + system, ms) to the file BENCH_CPU_FILE names,
// so a benchmark can sum the CPU of a command and of the Node processes it starts. The machine
// is shared: CPU time holds steadier under load than wall time.
'use strict';
const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').appendFileSync(file, `${(user + system) / 1000}\n`);
  });
}
