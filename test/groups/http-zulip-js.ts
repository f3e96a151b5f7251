/** A process of `npm test`: the HTTP files that load zulip-js, which replaces the global FormData (test/helpers/test-groups.ts). */
import { runGroup } from '../helpers/test-groups.js';

await runGroup('zulip-js');
