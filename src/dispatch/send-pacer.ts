/**
 * When a dispatcher starts the POSTs its writes hand it: at once when none started within
 * the last `gapMs`, else together at the end of that gap. A POST started alone costs the
 * server several times its share of one started beside others (measured on loopback at 600
 * deliveries a second: about 280 µs of CPU each one by one, 180 in bursts 10 ms apart; the
 * socket's write wakes the receiver, the answer wakes the server, each time for one POST).
 * So a lone write's delivery goes out at once, and under a stream of writes deliveries go
 * out in bursts, each at most `gapMs` after its write (docs/webhooks.md, Delivery and
 * signatures). No timers here: the dispatcher sets one for `wait`.
 */
export class SendPacer {
  /** When a burst last started POSTs (ms, the clock's). */
  private lastBurst = Number.NEGATIVE_INFINITY;

  constructor(private readonly gapMs: number) {}

  /** How long to wait before the next burst may start (0: now). */
  wait(nowMs: number): number {
    return Math.max(0, this.lastBurst + this.gapMs - nowMs);
  }

  /** A burst started `count` POSTs at `nowMs` (none: it does not count as one). */
  started(nowMs: number, count: number): void {
    if (count > 0) this.lastBurst = nowMs;
  }
}
