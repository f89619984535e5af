// The floor of the list benchmarks: a bare node:http server sending fixed bytes, the
// least any server can do to answer with the same page.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const body = readFileSync(file!);
createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
