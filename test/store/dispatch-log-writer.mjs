// A worker of test/store/dispatch-log.test.ts: appends 500 long lines to the decision log of the
// store at argv[2], through the built appendDispatchLine (dist/), as a dispatching process would.
import { appendDispatchLine } from '../../dist/store/dispatch-log.js';
import { homeStorePaths } from '../../dist/store/home-paths.js';

const paths = homeStorePaths(process.argv[2]);
const worker = process.argv[3];
for (let i = 0; i < 500; i += 1) {
  const line = JSON.stringify({
    v: 1,
    time: new Date().toISOString(),
    event: 'Stop',
    source: 'run',
    session: null,
    snapshot: 'x',
    decision: null,
    runs: [],
    worker,
    i,
    pad: worker.repeat(3000),
  });
  if (!appendDispatchLine(paths, line)) process.exit(1);
}
