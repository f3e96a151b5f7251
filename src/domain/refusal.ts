/** Why an action is refused: the code and message of the error the API answers with (always HTTP 400). */
import type { ErrorCode } from './errors.js';

export interface Refusal {
  code: ErrorCode;
  msg: string;
}
