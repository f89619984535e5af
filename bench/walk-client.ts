// A full cursor walk of every person, 100 a page, one client, in a process of its own (so the
// bench process's heap and collector stay out of the client's way): prints what it saw as
// JSON. The client reads only what it must (the record count and the cursor at the tail),
// so the walk measures the server. `tsx bench/walk-client.ts PORT TOKEN PEOPLE`.
import { countOccurrences } from './lib.ts';
import { RawClient } from './raw-client.ts';

const [port, token, people] = process.argv.slice(2);
const headers = { authorization: `Bearer ${token}` };
let cursor: string | null = null;
let walked = 0;
let pages = 0;
let deepCursor = '';
const walker = await RawClient.open('127.0.0.1', Number(port));
const started = performance.now();
do {
  const res = await walker.get(`/v2/people?limit=100${cursor ? `&cursor=${cursor}` : ''}`, headers);
  if (res.status !== 200) throw new Error(`walk: ${res.status} ${res.body.toString()}`);
  const bytes = res.body;
  walked += countOccurrences(bytes);
  cursor = (/"nextCursor":(null|"([^"]*)")\}\}$/.exec(bytes.subarray(-400).toString())?.[2] ??
    null) as string | null;
  pages += 1;
  if (walked >= Number(people) / 2 && !deepCursor && cursor) deepCursor = cursor;
} while (cursor);
const seconds = (performance.now() - started) / 1000;
walker.close();
console.log(JSON.stringify({ walked, pages, seconds, deepCursor }));
