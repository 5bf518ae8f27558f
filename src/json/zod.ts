import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The one way this code base imports zod: its functional API (`zod/mini`), with zod's English
 * messages. A command builds and runs only the schemas it needs, and `zod/mini` builds them, and
 * loads, in a fraction of what the method-chaining API costs at start (about 8 ms of a 90 ms
 * install, bench/install.bench.mjs); the checks and the messages are the same.
 */
z.config(en());

export { z };
