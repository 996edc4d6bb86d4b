#!/usr/bin/env node
// The container's health check (Dockerfile): exit 0 when the sandbox answers on this machine. It fetches the
// browser library, a static asset that needs no admin token and that the request log leaves out, so the
// check neither needs curl nor the token nor fills the log. PAYLINK_HEALTH_URL: where the sandbox listens
// inside the container (default http://127.0.0.1:8417); an https URL is checked without verifying the
// certificate (this is liveness on loopback, not trust).
// CommonJS, as everything in bin/ (bin/package.json).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { request: http } = require('node:http');
const { request: https } = require('node:https');

const version = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')).version;
const base = new URL(process.env.PAYLINK_HEALTH_URL || 'http://127.0.0.1:8417');
const url = new URL(`/checkout/${version}/checkout-library.js`, base);
const send = url.protocol === 'https:' ? https : http;
const req = send(url, { method: 'HEAD', timeout: 5000, rejectUnauthorized: false }, (res) => {
  res.resume();
  process.exitCode = res.statusCode === 200 ? 0 : 1;
});
req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
req.on('error', (error) => {
  process.stderr.write(`paylink health check: ${url.origin} does not answer (${error.message})\n`);
  process.exitCode = 1;
});
req.end();
