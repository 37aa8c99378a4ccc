/**
 * The floor of the load bench (issue #12 §4): a bare Node http server, no framework, that reads each request
 * and answers it with the same fixed 1.1 KB JSON body and the header lines of a lookup answer (keep-alive).
 * What the race-site server does per lookup costs whatever it gets below this figure. Started by scripts/bench-load.ts with
 * PORT, HOST and WORKERS like the real server: WORKERS > 1 (or 'auto', one per core) runs that many
 * processes sharing the port through node:cluster, as server/src/server.ts does, so the two are compared on
 * the same number of processes.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';

/**
 * The bench's score-by-bib answers average about 1,100 body bytes (1,375 for A00001; fewer results for
 * others, and the bibs nobody wears): with the headers below, the floor then puts as many bytes per answer
 * on the wire as the server (about 1,590).
 */
const FLOOR_BODY_BYTES = 1100;

/**
 * The headers a score-by-bib answer carries (the security headers of server/src/lib/security-headers.ts and
 * those of lib/answer-cache.ts), so that both write the same header lines and about the same bytes.
 */
const LOOKUP_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  'content-security-policy': "default-src 'none'; frame-ancestors 'self'",
  'cache-control': 'public, max-age=60',
  'content-type': 'application/json; charset=utf-8',
  vary: 'accept-encoding',
};

/** The envelope of a lookup answer, padded to exactly FLOOR_BODY_BYTES bytes. */
function floorBody() {
  const shell = (pad) => JSON.stringify({ code: 0, msg: 'success', data: { pad } });
  const padding = FLOOR_BODY_BYTES - Buffer.byteLength(shell(''));
  return Buffer.from(shell('x'.repeat(padding)));
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const workersEnv = (process.env.WORKERS ?? '1').toLowerCase();
const workers = workersEnv === 'auto' ? Math.min(availableParallelism(), 64) : Math.max(1, Number(workersEnv) || 1);

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const body = floorBody();
  const headers = { ...LOOKUP_HEADERS, 'content-length': String(body.length) };
  const server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.listen(port, host);
  process.on('SIGTERM', () => process.exit(0));
}
