/** How values are encoded in the store: plain MessagePack, no shared structures (see STACK-NOTES #18). */
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, moreTypes: false });

export function encode(value: unknown): Buffer {
  return packr.pack(value);
}

export function decode<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
