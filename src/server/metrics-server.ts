import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

/** The metrics' own listener (METRICS_PORT). */
export interface MetricsServer {
  /** `http://HOST:PORT`, the port it got (METRICS_PORT=0 takes a free one). */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` alone on a port of its own, apart from the API: a scraper reaches
 * it on an internal network while the API's port faces clients. Anything else is a 404.
 */
export async function listenMetrics(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'Content-Type': metrics.contentType }).end(text),
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
