import { sql } from 'kysely';
import type { Executor } from '../database.ts';

/**
 * The lease that lets one dispatcher at a time claim deliveries from an SQLite database
 * (`dispatch_leases`): its holder renews it every few seconds; when it expires (the holder
 * died or hangs), another dispatcher takes it over.
 */

/** The lease's name for the webhook dispatcher. */
export const WEBHOOKS_LEASE = 'webhooks';

/** Who holds a lease, and until when. */
export interface LeaseState {
  holder: string;
  expiresAt: string;
}

/** The lease `name` as it stands, or undefined when nobody ever took it (or it was let go). */
export async function readLease(db: Executor, name: string): Promise<LeaseState | undefined> {
  const row = await db
    .selectFrom('dispatch_leases')
    .select(['holder', 'expires_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? { holder: row.holder, expiresAt: row.expires_at } : undefined;
}

/**
 * Takes or renews the lease `name` for `holder` until `until`, when it is free, expired at
 * `now`, or `holder`'s already; true when `holder` holds it afterwards.
 */
export async function takeLease(
  db: Executor,
  name: string,
  holder: string,
  now: string,
  until: string,
): Promise<boolean> {
  const row = await db
    .insertInto('dispatch_leases')
    .values({ name, holder, expires_at: until })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: until })
        .where((eb) =>
          eb.or([
            eb('dispatch_leases.holder', '=', holder),
            eb('dispatch_leases.expires_at', '<', now),
          ]),
        ),
    )
    .returning(sql<string>`holder`.as('holder'))
    .executeTakeFirst();
  return row?.holder === holder;
}

/**
 * Whether `holder` holds the lease `name` at `now`. Inside a write transaction it fences
 * as well as renewing would: nobody can take the lease over until the transaction ends.
 */
export async function holdsLease(
  db: Executor,
  name: string,
  holder: string,
  now: string,
): Promise<boolean> {
  const lease = await readLease(db, name);
  return lease !== undefined && lease.holder === holder && lease.expiresAt > now;
}

/** Lets the lease go, if `holder` still holds it: another dispatcher may take it at once. */
export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await db
    .deleteFrom('dispatch_leases')
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
