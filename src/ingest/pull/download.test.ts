import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { download } from './download.ts';
import { CrmApiError, Source } from './source.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-download-'));
  dirs.push(dir);
  return dir;
}

/** A body that sends `bytes` in pieces of 1 KiB, failing after `failAfter` of them. */
function body(bytes: Buffer, failAfter = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  let at = 0;
  let pieces = 0;
  return new ReadableStream({
    pull(controller) {
      if (pieces++ >= failAfter) {
        controller.error(new TypeError('terminated', { cause: { code: 'ECONNRESET' } }));
        return;
      }
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + 1024)));
      at += 1024;
    },
  });
}

const FILE_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'content-disposition': `attachment; filename="_____.txt"; filename*=UTF-8''${encodeURIComponent('회의록 원본.txt')}`,
};

describe('download', () => {
  it("streams a file's bytes to disk, asking again after a 503, a 429 and a connection cut in the body", async () => {
    const bytes = Buffer.alloc(20 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 32 + ((i * 13) % 95);
    const answers = [
      () => new Response('{"success":false}', { status: 503 }),
      () =>
        new Response('{"success":false,"reason":"1초 후 재시도해주세요."}', {
          status: 429,
          headers: { 'content-type': 'application/json' },
        }),
      () => new Response(body(bytes, 5), { status: 200, headers: FILE_HEADERS }),
      () => new Response(body(bytes), { status: 200, headers: FILE_HEADERS }),
    ];
    const asked: string[] = [];
    const source = new Source({
      url: 'http://source',
      token: 't',
      fetch: async (input) => {
        asked.push(String(input));
        return answers[asked.length - 1]!();
      },
    });
    const file = join(fresh(), 'f1');
    const got = await download(source, '/v2/file/f1/content', file);
    expect(got).toEqual({
      contentType: 'text/plain; charset=utf-8',
      name: '회의록 원본.txt',
      size: bytes.length,
    });
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(asked).toEqual(Array(4).fill('http://source/v2/file/f1/content'));
    expect(source.counts).toEqual({ requests: 4, rateLimited: 1, retried: 2 });
  });

  it('answers a 404 as the error it is, without asking again', async () => {
    let asked = 0;
    const source = new Source({
      url: 'http://source',
      token: 't',
      fetch: async () => {
        asked++;
        return new Response('{"success":false,"message":"파일을 찾을 수 없습니다"}', {
          status: 404,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const failed = await download(source, '/v2/file/gone/content', join(fresh(), 'gone')).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(CrmApiError);
    expect((failed as CrmApiError).status).toBe(404);
    expect(asked).toBe(1);
  });

  it('refuses a file past the most a file may be here, asked once, leaving nothing on disk', async () => {
    let asked = 0;
    // An endless body: a source that never stops sending.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1 << 20));
      },
    });
    const source = new Source({
      url: 'http://source',
      token: 't',
      fetch: async () => {
        asked++;
        return new Response(endless, { status: 200, headers: FILE_HEADERS });
      },
    });
    const dir = fresh();
    const failed = await download(source, '/v2/file/big/content', join(dir, 'big')).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(CrmApiError);
    expect((failed as CrmApiError).status).toBe(413);
    expect(asked).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});
