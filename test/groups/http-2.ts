/** A process of `npm test`: HTTP group 2 (test/helpers/test-groups.ts). */
import { runGroup } from '../helpers/test-groups.js';

await runGroup(2);
