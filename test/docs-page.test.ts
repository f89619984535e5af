import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/database.ts';
import { START_MS } from './budgets.ts';
import { browserSkipReason, CHROMIUM_PATH, chromiumMissing } from './chromium.ts';
import { type TestWorkspace, testApp, testStore, testWorkspace } from './helpers.ts';

// Without a browser the test is skipped (vitest.config.ts says so loudly), except on CI.
describe.skipIf(browserSkipReason() !== undefined)('GET /docs in a browser', () => {
  let store: Store & { dispose(): Promise<void> };
  let app: FastifyInstance;
  let ws: TestWorkspace;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const missing = chromiumMissing();
    if (missing) throw new Error(`CI needs the browser of the /docs page test: ${missing}`);
    store = await testStore();
    ws = await testWorkspace(store);
    app = await testApp(store);
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const created = await fetch(`${origin}/v2/people`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '문서페이지 고객' }),
    });
    expect(created.status).toBe(201);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await store?.dispose();
  });

  it('lists the endpoints, takes a token and runs a request', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) outside.push(request.url());
    });
    // The page runs under its Content-Security-Policy: whatever the policy blocked, the
    // browser says on the console.
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${origin}/docs`);

    // The endpoints are listed, from /openapi.json.
    const listPeople = page.locator('#operations-People-listPeople');
    await listPeople.waitFor({ timeout: START_MS });
    const paths = await page
      .locator('.opblock-summary-path')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path')));
    expect(paths).toEqual(expect.arrayContaining(['/v2/people', '/v2/deal/{dealId}', '/v2/quote']));
    expect(paths.length).toBeGreaterThan(45);

    // Paste the token.
    await page.locator('.auth-wrapper .authorize').click();
    await page.locator('.modal-ux input[type=text]').fill(ws.token);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    // Try GET /v2/people.
    await listPeople.locator('.opblock-summary').click();
    const ready = listPeople.locator('button.execute, button.try-out__btn');
    await ready.first().waitFor({ timeout: START_MS });
    const buttons = await listPeople.locator('button').allInnerTexts();
    if (!(await listPeople.locator('button.execute').isVisible())) {
      expect(buttons).toContain('Try it out');
      await listPeople.locator('button.try-out__btn').click();
    }
    await listPeople.locator('button.execute').click();
    const body = listPeople.locator('.live-responses-table .response-col_description pre');
    await body.first().waitFor({ timeout: START_MS });
    const text = await body.first().innerText();
    expect(text).toContain('"peopleList"');
    expect(text).toContain('문서페이지 고객');
    const status = await listPeople
      .locator('.live-responses-table .response .response-col_status')
      .first()
      .innerText();
    expect(status.trim()).toBe('200');

    // Nothing was fetched from anywhere else (no CDN).
    expect(outside).toEqual([]);
    expect(blocked).toEqual([]);
    const answer = await page.request.get(`${origin}/docs`);
    expect(answer.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");
    await page.close();
  }, 90_000);
});
