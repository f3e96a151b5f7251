/** How values are encoded in the store: plain MessagePack, no shared structures (see STACK-NOTES #18). */
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, moreTypes: false });

/** Index rows mostly hold small integers (flags, 0): their encodings are made once and shared. */
const SMALL_INTS = Array.from({ length: 1 << 13 }, (_, i) => Buffer.from(packr.pack(i)));

export function encode(value: unknown): Buffer {
  if (typeof value === 'number' && value >= 0 && value < SMALL_INTS.length && Number.isInteger(value)) return SMALL_INTS[value];
  return packr.pack(value);
}

export function decode<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
