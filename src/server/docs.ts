import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
// Imported, not read from disk, so a build (`tsc`) carries it along.
import examples from '../api-schema/examples.json' with { type: 'json' };
import { buildOpenApiDocument, type OperationExamples } from '../api-schema/openapi.ts';
import { DomainError } from '../domain/errors.ts';
import { JSON_TYPE } from '../http/send.ts';

/** A route of the app as Fastify registered it. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after `recordRoutes` (HEAD routes included). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * Records every route registered from now on as `app.registeredRoutes`, so a test can
 * compare the server's routes with the OpenAPI document.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
}

/** Files of `swagger-ui-dist` the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The page's one inline script: Swagger UI started on the document. */
const startScript = (base: string) => `
window.ui = SwaggerUIBundle({
  url: '${base}/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/**
 * The reference page's Content-Security-Policy: its files and its one inline script (by
 * hash) and nothing else, requests to this origin only, never in a frame. Swagger UI
 * needs no `eval`; it does apply an inline style of its own (which changes with its
 * version), so styles may be inline: a style runs no code. test/docs-page.test.ts runs the
 * page under this policy and fails on anything it blocks.
 */
function docsPolicy(base: string): string {
  const hash = createHash('sha256').update(startScript(base)).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The reference page under `base`: Swagger UI from the package's own files, reading the document. */
const page = (base: string) => `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<title>Sales CRM API v2</title>
<link rel="stylesheet" href="${base}/docs/swagger-ui.css">
<link rel="stylesheet" href="${base}/docs/index.css">
<link rel="icon" type="image/png" href="${base}/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/docs/swagger-ui-bundle.js"></script>
<script src="${base}/docs/swagger-ui-standalone-preset.js"></script>
<script>${startScript(base)}</script>
</body>
</html>
`;

/**
 * `GET /openapi.json` (the document, built once) and `GET /docs` with its assets, under
 * BASE_PATH as the API is (a proxy that forwards only the base path reaches them). Neither
 * needs a token: they are outside `/v2`.
 */
export function registerDocsRoutes(
  app: FastifyInstance,
  { basePath, version }: { basePath: string; version?: string },
): void {
  let document: string | undefined;
  const html = page(basePath);
  const policy = docsPolicy(basePath);
  app.get(`${basePath}/openapi.json`, async (_request, reply) => {
    document ??= JSON.stringify(
      buildOpenApiDocument({ basePath, version, examples: examples as OperationExamples }),
    );
    return reply.header('Content-Type', JSON_TYPE).send(document);
  });
  app.get(`${basePath}/docs`, async (_request, reply) =>
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', policy)
      .send(html),
  );
  app.get<{ Params: { asset: string } }>(`${basePath}/docs/:asset`, async (request, reply) => {
    const type = Object.hasOwn(ASSETS, request.params.asset)
      ? ASSETS[request.params.asset]
      : undefined;
    if (!type) {
      throw new DomainError('not_found', `문서 파일을 찾을 수 없습니다: '${request.params.asset}'`);
    }
    const bytes = readFileSync(join(SWAGGER_UI_DIR, request.params.asset));
    return reply
      .header('Content-Type', type)
      .header('Cache-Control', 'public, max-age=86400')
      .send(bytes);
  });
}
