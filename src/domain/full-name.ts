/** Zulip's rules for a user's full name (`check_full_name`): trimmed, 2 to 100 characters, printable, no `|<digits>` ending. */
import { badRequest } from './errors.js';
import { codePointLength, nonPrintablePosition, pyStrip } from './topics.js';
import { LIMITS } from './versions.js';

const MIN_NAME_LENGTH = 2;

export function checkFullNameRules(raw: string): string {
  const name = pyStrip(raw);
  if (codePointLength(name) > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  if (codePointLength(name) < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if (nonPrintablePosition(name) !== undefined) throw badRequest('Invalid characters in name!');
  // A name ending in `|15` would read as a mention of user 15 to a careless parser.
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}
