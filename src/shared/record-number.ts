/**
 * A number per record object. Records are replaced, never mutated, when they change, so a cache
 * may put this number in its validity stamp: a new record gets a new number.
 */
const numbers = new WeakMap<object, number>();
let nextNumber = 0;

export function recordNumber(record: object): number {
  let number = numbers.get(record);
  if (number === undefined) numbers.set(record, (number = ++nextNumber));
  return number;
}
