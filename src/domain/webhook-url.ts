/**
 * Which URLs a webhook may target (DECISIONS 8): http or https, and, unless the service
 * allows private networks, only addresses of the public internet. An address is judged by
 * its range (ipaddr.js); IPv4-mapped IPv6 addresses are judged as the IPv4 they carry.
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
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** The 400 for a webhook URL whose host is, or resolves to, a non-public address. */
export function privateAddressError(host: string, address: string, range: string): DomainError {
  const via = host === address ? address : `'${host}' → ${address}`;
  return new DomainError(
    'invalid_body',
    `웹훅 URL이 공개되지 않은 주소를 가리킵니다: ${via} (${range}). 공개 인터넷 주소만 등록할 수 있습니다.`,
  );
}
