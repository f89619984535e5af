/**
 * What a matched route is to the service's hooks: the API (`/v2`, `/v3`: token, rate limit),
 * the MCP endpoint (token; its tool calls count, not its messages), or a service route
 * (probes, metrics, the document: no token). `route` is the route's pattern, never the raw URL.
 */
export type RouteKind = 'api' | 'mcp' | 'service';

export function routeKind(route: string | undefined, base: string): RouteKind {
  return route === undefined ? 'service' : pathKind(route, base);
}

/**
 * What a path is to the service: a route's pattern, or a raw path (no query) before any
 * route matched it, as load shedding sees it (`/mcp/` is `/mcp`, as the router takes it).
 */
export function pathKind(path: string, base: string): RouteKind {
  if (path === `${base}/mcp` || path === `${base}/mcp/`) return 'mcp';
  return path.startsWith(`${base}/v2/`) || path.startsWith(`${base}/v3/`) ? 'api' : 'service';
}

/**
 * Whether a raw path (no query) reads one deal, `GET /v2/deal/{dealId}`: the only route that
 * answers its errors in shape B (docs/decisions.md, Error shapes). A write to the same path answers
 * shape A.
 */
export function isSingleDealPath(base: string, method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const prefix = `${base}/v2/deal/`;
  if (!path.startsWith(prefix)) return false;
  const rest = path.slice(prefix.length).replace(/\/$/, '');
  return rest !== '' && rest !== 'history' && !rest.includes('/');
}
