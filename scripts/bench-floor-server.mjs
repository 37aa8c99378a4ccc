/**
 * The floor of the load bench (issue #12 §4): a bare Node http server, no framework, that reads each request
 * and answers it with the same fixed 1.1 KB JSON body (a score answer, floorBody) and the header lines of a
 * lookup answer (keep-alive).
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

/**
 * A score answer as the server sends one (the demo's shape: a runner, a race and an item named in Chinese
 * and English, splits, ranks and a certificate), with as many splits as fit in FLOOR_BODY_BYTES and spaces
 * after it (JSON whitespace) up to exactly that size. Its content matters, not only its size: the load
 * generator decodes every answer body into a string, and text with Chinese characters takes V8's slower
 * two-byte decoding, about 2 µs more per answer than the same bytes of ASCII (measured with perf). A floor
 * padded with ASCII made the generator itself look 10% faster against the floor than against the server.
 */
function floorBody() {
  const split = (checkpoint, distanceKm, time, lap, pace) => ({ checkpoint, distanceKm, time, split: lap, pace });
  const splits = [
    split('5K', 5, '0:19:04', '0:19:04', '3:49'),
    split('10K', 10, '0:38:51', '0:19:47', '3:57'),
    split('HALF', 21.0975, '1:25:19', '0:46:28', '4:20'),
    split('25K', 25, '1:42:30', '0:17:11', '4:24'),
    split('30K', 30, '2:05:09', '0:22:39', '4:32'),
    split('35K', 35, '2:28:31', '0:23:22', '4:40'),
    split('40K', 40, '2:52:37', '0:24:06', '4:49'),
  ];
  const answer = (count) => ({
    code: 0,
    msg: 'success',
    data: [
      {
        raceId: 'qc-marathon-2026',
        raceName: '2026 青川运河马拉松',
        raceNameEn: '2026 Qingchuan Grand Canal Marathon',
        raceDate: '2026-04-19',
        bib: 'A00002',
        name: '陈磊',
        gender: 1,
        item: 'M',
        itemName: '马拉松',
        itemNameEn: 'Marathon',
        distanceKm: 42.195,
        gunTime: '3:07:02',
        chipTime: '3:03:25',
        gunMs: 11221821,
        chipMs: 11005134,
        pace: '4:21',
        splits: splits.slice(0, count),
        ranks: { overall: 4470, gender: 2745, ageGroup: 266, ageGroupLabel: 'M50-54', finishers: 14586 },
        certificate: { id: 'qc-marathon-2026:A00002', sig: '7XPqffm6CSgStDWJZAKqd2kzqGTT89yxXY1npN8glL8' },
      },
    ],
  });
  let count = splits.length;
  while (count > 0 && Buffer.byteLength(JSON.stringify(answer(count))) > FLOOR_BODY_BYTES) count--;
  const json = JSON.stringify(answer(count));
  return Buffer.from(json + ' '.repeat(FLOOR_BODY_BYTES - Buffer.byteLength(json)));
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
