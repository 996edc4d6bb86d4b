import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

// RFC 9112 (3.2.2): a server accepts a request target in absolute-form (`GET http://host:port/path`, what a
// client sends to a proxy) and takes the target's authority as the host, ignoring the Host header.

let sb: RunningSandbox;
let port: number;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, db: ':memory:' });
  port = Number(new URL(sb.url).port);
});
afterAll(async () => {
  await sb?.close();
});

/** Sends raw HTTP/1.1 text and resolves with the status and body of the answer (the server closes). */
function raw(text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(text);
  });
}

const request = (target: string, host: string): string => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

describe('a request target in absolute-form', () => {
  it('answers GET http://127.0.0.1:P/__sandbox/health as /__sandbox/health', async () => {
    const origin = await raw(request('/__sandbox/health', `127.0.0.1:${port}`));
    const absolute = await raw(request(`http://127.0.0.1:${port}/__sandbox/health`, `127.0.0.1:${port}`));
    expect(origin.status).toBe(200);
    expect(absolute.status).toBe(200);
    expect(JSON.parse(absolute.body).body).toEqual(JSON.parse(origin.body).body);
  });

  it('keeps the query and answers an unknown path as the path would (404 envelope)', async () => {
    const answer = await raw(request(`http://localhost:${port}/gateway/v3/nothing-here?businessId=b1`, `localhost:${port}`));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).body.error.code).toBeTypeOf('number');
  });

  it('applies the Host check to the authority: a name the sandbox is not reached by gets 421', async () => {
    const answer = await raw(request(`http://rebound.example:${port}/__sandbox/health`, `127.0.0.1:${port}`));
    expect(answer.status).toBe(421);
  });

  it('takes the authority over the Host header, as RFC 9112 says', async () => {
    const answer = await raw(request(`http://127.0.0.1:${port}/__sandbox/health`, 'rebound.example'));
    expect(answer.status).toBe(200);
    expect((await raw(request('/__sandbox/health', 'rebound.example'))).status).toBe(421);
  });
});
