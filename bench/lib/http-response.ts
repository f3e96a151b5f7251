/**
 * One HTTP/1.1 response framed from the bytes a raw socket has received: the load generators'
 * sockets (crowd-poll.ts, http-pool.ts) read answers by Content-Length.
 */
export interface FramedResponse {
  status: number;
  body: string;
  /** The body's length in bytes (Content-Length). */
  bytes: number;
  /** Bytes received after this response (the start of the next), if any. */
  rest: Buffer | undefined;
}

/** The first complete response in `data`, or undefined while more bytes are needed. */
export function frameResponse(data: Buffer): FramedResponse | undefined {
  const head = data.indexOf('\r\n\r\n');
  if (head < 0) return undefined;
  const header = data.toString('latin1', 0, head);
  const length = Number(/content-length:\s*(\d+)/i.exec(header)?.[1] ?? 0);
  const end = head + 4 + length;
  if (data.length < end) return undefined;
  return { status: Number(header.slice(9, 12)), body: data.toString('utf8', head + 4, end), bytes: length, rest: data.length > end ? data.subarray(end) : undefined };
}
