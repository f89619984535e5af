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
