import type { Executor } from '../store/database.ts';
import {
  readLease,
  releaseLease,
  takeLease,
  WEBHOOKS_LEASE,
} from '../store/outbox/dispatch-lease.ts';
import type { DispatchLog } from './log.ts';

/**
 * SQLite: a dispatcher's hold on the dispatch lease, so that one dispatcher per database
 * claims at a time. Taken when free or expired, renewed once a third of it has passed, and
 * given up when the dispatcher stops.
 */
export class DispatchLeaseHolder {
  private ends = 0;
  private holds = false;

  constructor(
    private readonly db: Executor,
    /** The dispatcher's id, as holder. */
    readonly holder: string,
    /** How long the lease lasts unless renewed. */
    private readonly ms: number,
    private readonly log: DispatchLog,
  ) {}

  /** Whether this dispatcher holds the lease, as far as it knows. */
  get held(): boolean {
    return this.holds;
  }

  /** Whether this dispatcher holds the lease, taking it when free or expired (a read only while another holds it). */
  async hold(nowMs: number): Promise<boolean> {
    if (this.holds && nowMs < this.ends) return true;
    const now = new Date(nowMs).toISOString();
    const lease = await readLease(this.db, WEBHOOKS_LEASE);
    if (lease && lease.holder !== this.holder && lease.expiresAt >= now) {
      this.holds = false;
      return false;
    }
    return this.renew(nowMs);
  }

  /** Renews the lease when it would end within two thirds of its length. */
  async keep(nowMs: number): Promise<void> {
    if (this.due(nowMs)) await this.renew(nowMs);
  }

  /** Whether `keep` would renew the lease now. */
  due(nowMs: number): boolean {
    return this.holds && this.ends - nowMs < (2 * this.ms) / 3;
  }

  /** Another dispatcher holds the lease (a claim found it so). */
  lost(): void {
    if (this.holds) {
      this.log.warn(
        { holder: this.holder },
        'webhook dispatch: another dispatcher took the dispatch lease',
      );
    }
    this.holds = false;
  }

  /** Gives the lease up (stopping). */
  release(): Promise<void> {
    this.holds = false;
    return releaseLease(this.db, WEBHOOKS_LEASE, this.holder);
  }

  private async renew(nowMs: number): Promise<boolean> {
    const ends = nowMs + this.ms;
    const took = await takeLease(
      this.db,
      WEBHOOKS_LEASE,
      this.holder,
      new Date(nowMs).toISOString(),
      new Date(ends).toISOString(),
    );
    if (!took) {
      this.lost();
      return false;
    }
    if (!this.holds)
      this.log.info({ holder: this.holder }, 'webhook dispatch: holding the dispatch lease');
    this.holds = true;
    this.ends = ends;
    return true;
  }
}
