import { config } from 'zod';

/**
 * Imported first by every CLI path that validates documents (cli/main.ts, cli/install-action.ts,
 * cli/fast-search.ts), before any schema exists: zod decides at construction whether an object
 * schema compiles its own parser with `new Function` on first use, code that V8's code cache
 * cannot keep. A command parses each document once or twice, so the compile costs more than it
 * saves (about 2 ms per install, bench/install.bench.mjs). The checks are the same either way. The
 * library (src/index.ts) leaves zod's default alone.
 */
config({ jitless: true });
