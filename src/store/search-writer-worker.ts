/**
 * The search index's writer, in a worker thread: it owns the write connection of every large index
 * file of the process and takes in batches of documents, one transaction each. FTS5 merges its
 * segments during writes, and a merge of a large index's segments holds a transaction for tens or
 * hundreds of milliseconds: here it never stops the event loop that answers requests.
 */
import { parentPort } from 'node:worker_threads';
import { handleRequest, type IndexFile, type WriterReply, type WriterRequest } from './search-writer-file.js';

const files = new Map<string, IndexFile>();

parentPort!.on('message', (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    handleRequest(files, request);
    reply = { seq: request.seq };
  } catch (error) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
