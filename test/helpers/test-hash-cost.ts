/**
 * Preloaded (`node --import`) into the server and CLI processes that tests start: they hash
 * passwords at the test cost, as the test's own in-process servers do (see server.ts and
 * credentials.ts). A fresh demo organization hashes eight passwords: 0.35 CPU-s at full cost.
 */
import { setPasswordHashCost } from '../../src/domain/credentials.js';

setPasswordHashCost('test');
