/**
 * The ports no delivery is sent to: the Fetch standard's "bad ports" (services such as SMTP,
 * SSH, IRC that a POST could be made to talk to), which deliveries refused when they went
 * through `fetch`, kept now that they go through undici's `request`, which has no such list.
 */
const BLOCKED_PORTS = new Set(
  (
    '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 ' +
    '110 111 113 115 117 119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 ' +
    '530 531 532 540 548 554 556 563 587 601 636 989 990 993 995 1719 1720 1723 2049 ' +
    '3659 4045 4190 5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080'
  ).split(' '),
);

/** Why `url` is not sent to (its scheme, or its port), or undefined when it may be. */
export function blockedTarget(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} is not sent`;
  if (BLOCKED_PORTS.has(url.port)) return `port ${url.port} is not sent to (bad port)`;
  return undefined;
}
