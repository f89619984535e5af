/**
 * A reader thread of `read-threads.ts`: opens the store's read side at `workerData.url` and
 * runs the tasks it is sent, one at a time, answering each with its result or its error as
 * plain data. The tasks are pure reads; their input and answer cross threads as copies.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { transferError } from '../http/error-transfer.ts';
import { type BatchReadRequest, batchReadAnswer } from '../resources/batch/reads.ts';
import { type SearchRequest, searchPage } from '../resources/search/search-page.ts';
import { openReadSide, type ReadSide } from '../store/database.ts';
import type { ReadJob, ReadReply } from './read-threads.ts';

/** The tasks a reader thread runs, by name. */
const TASKS: Record<string, (read: ReadSide, input: unknown) => Promise<unknown>> = {
  search: (read, input) => searchPage(read, input as SearchRequest),
  batchRead: (read, input) => batchReadAnswer(read, input as BatchReadRequest),
};

const port = parentPort!;
const read = openReadSide((workerData as { url: string }).url);

port.on('message', async (message: ReadJob | 'close') => {
  if (message === 'close') {
    await read.close();
    port.close();
    return;
  }
  let reply: ReadReply;
  try {
    const task = TASKS[message.task];
    if (!task) throw new Error(`no read task '${message.task}'`);
    reply = { result: await task(read, message.input) };
  } catch (error) {
    reply = { error: transferError(error) };
  }
  port.postMessage(reply);
});
port.postMessage('ready');
