/**
 * The receiver of `pull --follow --listen`: a small HTTP server the source's webhook
 * deliveries are POSTed to (docs/webhooks.md). A delivery is verified with the webhook's
 * secret when the pull registered it (Standard Webhooks signatures), answered `204` at once,
 * then handed on; the verification POST of a registration (`{"event":"verify"}`) is answered
 * and nothing more. A delivery is only a hint: the pull reads the record it names from the
 * source before it changes the copy.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError } from '../../client/webhooks.ts';

/** The largest delivery taken: payloads are a few hundred bytes. */
const MAX_BODY = 1 << 20;

/** A running receiver. */
export class WebhookReceiver {
  /** The secrets deliveries must be signed with; none: not checked (a webhook registered by hand). */
  secrets: string[] = [];
  /** Deliveries refused (a bad signature, not JSON). */
  refused = 0;

  private constructor(
    private readonly server: Server,
    private readonly onEvent: (payload: Record<string, unknown>) => void,
  ) {}

  /** Listens on `host:port` (port 0: any free one). */
  static async start(
    host: string,
    port: number,
    onEvent: (payload: Record<string, unknown>) => void,
  ): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      receiver!.handle(req).then(
        (status) => res.writeHead(status).end(),
        () => res.writeHead(500).end(),
      );
    });
    receiver = new WebhookReceiver(server, onEvent);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return receiver;
  }

  /** The port it listens on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stops listening. */
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage): Promise<number> {
    if (req.method !== 'POST') return 405;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return 413;
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      this.refused++;
      return 400;
    }
    // The secret comes with the registration's answer, after this POST: it cannot be checked.
    if (payload?.event === 'verify') return 204;
    if (this.secrets.length > 0) {
      try {
        payload = (await verifyWebhook(body, req.headers, this.secrets)) as unknown as Record<
          string,
          unknown
        >;
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        this.refused++;
        return 400;
      }
    }
    if (typeof payload !== 'object' || payload === null) {
      this.refused++;
      return 400;
    }
    this.onEvent(payload);
    return 204;
  }
}
