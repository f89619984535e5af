// The peer of the list benchmarks: json-server 0.17 (the tool people reach for to fake an
// API), in its own process, loaded with the same people records as the API serves. Reads
// an NDJSON file of records (one a line: a file of one JSON array would pass V8's largest
// string at a million people), at most `max` of them, and serves them as `/people`.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const [file, port, max] = process.argv.slice(2);
const limit = Number(max ?? Number.POSITIVE_INFINITY);
const people: unknown[] = [];
for await (const line of createInterface({ input: createReadStream(file!) })) {
  if (people.length >= limit) break;
  if (line) people.push(JSON.parse(line));
}
const jsonServer = createRequire(import.meta.url)('json-server');
const app = jsonServer.create();
app.use(jsonServer.router({ people }));
const server = app.listen(Number(port), '127.0.0.1', () =>
  process.send?.({ ready: true, records: people.length }),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
