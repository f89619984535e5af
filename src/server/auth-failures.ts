/**
 * Throttles token guessing (`AUTH_FAILURE_LIMIT`): failed token checks are counted per client
 * address in fixed one-minute windows, and an address past the limit gets a 429 for every API
 * request until its window ends, before its token is looked at, so that a throttled guess
 * learns nothing (not even that a token was right). Counts live in this process's memory, in
 * a map of at most `capacity` addresses: addresses made up by the thousand cost no more.
 */
import ipaddr from 'ipaddr.js';
import { tooManyRequests } from '../http/errors.ts';
import type { AuthContext } from '../http/route-deps.ts';
import { UnknownTokenError } from './auth.ts';

/** The window failed checks are counted in. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;

/** Addresses counted at most; past it, the one whose last failure is oldest is forgotten. */
export const AUTH_FAILURE_ADDRESSES = 10_000;

/** The message of an address's 429 (its `reason` names the seconds to wait). */
export const AUTH_FAILURES_MESSAGE = '인증에 실패한 요청이 너무 많습니다.';

/** Failed token checks per client, in fixed windows, for at most `capacity` clients. */
export class AuthFailureCounter {
  // In the order of each client's last failure, oldest first: the first is forgotten first.
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweepAt = 0;

  constructor(
    readonly max: number,
    private readonly windowMs = AUTH_FAILURE_WINDOW_MS,
    private readonly capacity = AUTH_FAILURE_ADDRESSES,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Clients counted now. */
  get size(): number {
    return this.windows.size;
  }

  /** Seconds `client` must wait before its token is checked again; 0 when it may now. */
  wait(client: string): number {
    const w = this.windows.get(client);
    if (!w || w.count < this.max) return 0;
    const left = w.start + this.windowMs - this.clock();
    if (left <= 0) {
      this.windows.delete(client);
      return 0;
    }
    return Math.max(1, Math.ceil(left / 1000));
  }

  /** Counts one failed check by `client`. */
  fail(client: string): void {
    const now = this.clock();
    if (now >= this.sweepAt) this.sweep(now);
    const w = this.windows.get(client);
    this.windows.delete(client);
    if (w && now - w.start < this.windowMs) {
      w.count++;
      this.windows.set(client, w);
      return;
    }
    if (this.windows.size >= this.capacity) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    this.windows.set(client, { start: now, count: 1 });
  }

  /** Drops the windows that have ended. */
  private sweep(now: number): void {
    for (const [client, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(client);
    this.sweepAt = now + this.windowMs;
  }
}

/**
 * Who a request's address counts as: an IPv4 address as itself (an IPv4-mapped IPv6 one as
 * its IPv4), an IPv6 address as its /64, the block one host usually has whole.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/** Authenticates a request's `Authorization` header, sent from `address`. */
export type ClientAuthenticator = (
  authorization: string | undefined,
  address: string,
) => Promise<AuthContext>;

/**
 * `authenticate`, with an address refused (429) once `counter` holds `max` unknown or revoked
 * tokens from it in the window; without a counter (`AUTH_FAILURE_LIMIT=0`), `authenticate`.
 * Only a token checked against the database counts: a missing or malformed header is no guess.
 */
export function throttledAuthenticator(
  authenticate: (authorization: string | undefined) => Promise<AuthContext>,
  counter: AuthFailureCounter | undefined,
): ClientAuthenticator {
  if (!counter) return (authorization) => authenticate(authorization);
  return async (authorization, address) => {
    // Nothing has failed lately (the usual case): no address to parse for every request.
    if (counter.size > 0) {
      const wait = counter.wait(clientOf(address));
      if (wait > 0) throw tooManyRequests(wait, AUTH_FAILURES_MESSAGE);
    }
    try {
      return await authenticate(authorization);
    } catch (error) {
      if (error instanceof UnknownTokenError) counter.fail(clientOf(address));
      throw error;
    }
  };
}

/** The counter for `AUTH_FAILURE_LIMIT` failures a minute; undefined when it is 0 or unset. */
export function authFailureCounter(limit: number | undefined): AuthFailureCounter | undefined {
  return limit ? new AuthFailureCounter(limit) : undefined;
}
