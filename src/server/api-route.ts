/**
 * What a matched route is to the service's hooks: the API (`/v2`, `/v3`: token, rate limit),
 * the MCP endpoint (token; its tool calls count, not its messages), or a service route
 * (probes, metrics, the document: no token). `route` is the route's pattern, never the raw URL.
 */
export type RouteKind = 'api' | 'mcp' | 'service';

export function routeKind(route: string | undefined, base: string): RouteKind {
  if (route === undefined) return 'service';
  if (route === `${base}/mcp`) return 'mcp';
  return route.startsWith(`${base}/v2/`) || route.startsWith(`${base}/v3/`) ? 'api' : 'service';
}

/**
 * Whether a raw path (no query) reads one deal, `GET /v2/deal/{dealId}`: the only route that
 * answers its errors in shape B (DECISIONS 3). A write to the same path answers shape A.
 */
export function isSingleDealPath(base: string, method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const prefix = `${base}/v2/deal/`;
  if (!path.startsWith(prefix)) return false;
  const rest = path.slice(prefix.length).replace(/\/$/, '');
  return rest !== '' && rest !== 'history' && !rest.includes('/');
}
