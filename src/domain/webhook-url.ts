/**
 * Which URLs a webhook may target (docs/decisions.md, Events and webhooks): http or https, and,
 * unless the service allows private networks, only addresses of the public internet. An address is
 * judged by its range (ipaddr.js); IPv4-mapped IPv6 addresses are judged as the IPv4 they carry.
 * The other IPv6 forms that carry an IPv4 address are refused whatever they carry: IPv4-compatible
 * (`::/96`, deprecated by RFC 4291, which some systems still route to the IPv4 address), NAT64
 * (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002::/16`), Teredo (`2001::/32`) and SIIT
 * (`::ffff:0:0:0/96`); so is any IPv6 address outside the global unicast space (`2000::/3`), where
 * nothing of the public internet is.
 */
import ipaddr from 'ipaddr.js';
import { DomainError } from './errors.ts';

/** The longest URL a webhook may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2_000;

/** The URL a webhook's `url` names, or a 400 naming it when it is not an http(s) URL. */
export function parseWebhookUrl(raw: string): URL {
  const shown = raw.length > 100 ? `${raw.slice(0, 100)}…` : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('invalid_body', `'url' 값이 올바른 URL이 아닙니다: '${shown}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainError(
      'invalid_body',
      `'url' 값은 http 또는 https URL이어야 합니다: '${shown}'`,
    );
  }
  if (url.hostname === '') {
    throw new DomainError('invalid_body', `'url' 값에 호스트가 없습니다: '${shown}'`);
  }
  return url;
}

/** A URL's host as an IP address (`[::1]` → `::1`), or undefined when it is a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : undefined;
}

/**
 * Why a webhook may not reach `address`: the name of its range (`loopback`, `private`,
 * `linkLocal`, `unspecified`, `uniqueLocal`, ...), or undefined for a public unicast address.
 * Text that is not an IP address is refused as `invalid`.
 */
export function blockedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.process(canonical(address));
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6') {
    if (parsed.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!parsed.match(GLOBAL_UNICAST)) return 'reserved';
  }
  return undefined;
}

/** `::/96`: IPv4-compatible IPv6 addresses (RFC 4291 2.5.5.1, deprecated). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** `2000::/3`: the only IPv6 space allocated to the public internet. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * An IPv6 address in the URL parser's form (`::7f00:1`): ipaddr.js reads the dotted form
 * `::127.0.0.1`, which is how `dns.lookup` prints an IPv4-compatible address, as the
 * IPv4-mapped `::ffff:127.0.0.1`. An address the URL parser refuses (one with a zone,
 * `fe80::1%eth0`) is kept as it is.
 */
function canonical(address: string): string {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** The 400 for a webhook URL whose host is, or resolves to, a non-public address. */
export function privateAddressError(host: string, address: string, range: string): DomainError {
  const via = host === address ? address : `'${host}' → ${address}`;
  return new DomainError(
    'invalid_body',
    `웹훅 URL이 공개되지 않은 주소를 가리킵니다: ${via} (${range}). 공개 인터넷 주소만 등록할 수 있습니다.`,
  );
}
