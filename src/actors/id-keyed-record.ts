/**
 * Records keyed by ids (a user's subscriptions by channel id) held in V8's hash-table form.
 *
 * A plain object whose keys are integers less than 1,024 apart gets array storage as long as
 * its largest key ("holey elements"). A user of 8 channels among 2,000 held about 20 KB, almost
 * all holes, and 20,000 users' subscriptions were 170 MB of live heap (a heap snapshot of the
 * mixed bench's organization), which every major garbage collection marks slot by slot. Storing
 * an index above 2^29 marks an object's element dictionary as needing slow elements for good;
 * deleting it again leaves an empty dictionary that stays one as keys are added.
 */

/** The largest array index: far past any id, so it forces the dictionary form. */
const FAR_INDEX = 4_294_967_294;

/** An empty record for id keys, in dictionary form. */
export function idKeyedRecord<V>(): Record<string, V> {
  const record: Record<string, V> = {};
  record[FAR_INDEX] = undefined as V;
  delete record[FAR_INDEX];
  return record;
}

/** A copy of `from` in dictionary form (a spread copy would get array storage again), each value through `map` when given. */
export function copyIdKeyed<V>(from: Readonly<Record<string, V>>, map?: (value: V) => V): Record<string, V> {
  const record = idKeyedRecord<V>();
  for (const key in from) record[key] = map ? map(from[key]!) : from[key]!;
  return record;
}

/** A copy of `from` with `key` set to `value`: `{ ...from, [key]: value }` in dictionary form. */
export function withIdKey<V>(from: Readonly<Record<string, V>>, key: number | string, value: V): Record<string, V> {
  const record = copyIdKeyed(from);
  record[key] = value;
  return record;
}
