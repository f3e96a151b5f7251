/** A process of `npm test`: every unit test file (test/helpers/test-groups.ts). */
import { runGroup } from '../helpers/test-groups.js';

await runGroup('unit');
