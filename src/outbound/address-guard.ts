/**
 * Keeps webhook requests off private networks: a URL whose host is a non-public IP address
 * is refused before any connection, and a host name is resolved (every address, as
 * `dns.lookup` with `all: true` gives them) by the request's own lookup, which fails when
 * any address is not public. The connection then goes to an address that was checked, so
 * a name cannot resolve to a public address for the check and a private one for the send.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { blockedRange, ipLiteralOf, privateAddressError } from '../domain/webhook-url.ts';

/** A host name that resolved to an address a webhook may not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address} (${range})`);
  }
}

/**
 * The address and its range when `url`'s host is itself an IP address a webhook may not
 * reach (never looked up, so the resolver's check does not see it); else undefined.
 */
export function blockedLiteral(url: URL): { address: string; range: string } | undefined {
  const address = ipLiteralOf(url);
  const range = address === undefined ? undefined : blockedRange(address);
  return address !== undefined && range ? { address, range } : undefined;
}

/** A 400 when `url`'s host is itself an IP address a webhook may not reach. */
export function refuseBlockedLiteral(url: URL): void {
  const blocked = blockedLiteral(url);
  if (blocked) throw privateAddressError(blocked.address, blocked.address, blocked.range);
}

/**
 * A `lookup` for `http.request` that resolves every address of the host and fails with a
 * `BlockedAddressError` when any of them is not public.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    for (const { address } of addresses) {
      const range = blockedRange(address);
      if (range) {
        callback(new BlockedAddressError(hostname, address, range), '', 0);
        return;
      }
    }
    const first = addresses[0];
    if (!first) {
      callback(
        Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
        '',
        0,
      );
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};
