/** A process of `npm test`: HTTP group 5 (test/helpers/test-groups.ts). */
import { runGroup } from '../helpers/test-groups.js';

await runGroup(5);
