import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A merchant's return page for the file's tests: answers 200 with `html` and never reads the status (what a
 * README reader points `--return-url` at). Its `url` is set before the file's first test.
 */
export function useReturnPage(html = '<p>Thanks</p>'): { readonly url: string } {
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/return`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return {
    get url() {
      return url;
    },
  };
}
