/**
 * The floor of the load bench (issue #29 §5): a bare Node http server, no framework, holding the same answers
 * as the race-site server, by request. FLOOR_ANSWERS names a file of JSON lines `[request body, headers,
 * answer body]` that scripts/bench-load.ts collects from the server under test just before the measured run
 * (every body of the scenario's pool, e.g. the ~27,000 score-by-bib answers of the demo's runners), so both
 * sides keep the same working set: as many distinct answers, of the same bytes, with the same header lines.
 * Each request's body is read whole and looked up as it came (no parsing: cheaper than anything the server
 * can do), and its answer sent; a body it does not hold gets 404 (the bench counts that as a failed floor).
 * A GET answers 200 (the bench's readiness check).
 *
 * Started by scripts/bench-load.ts with PORT, HOST and WORKERS like the server under test, on as many
 * processes: WORKERS > 1 (or 'auto', one per core) runs that many processes sharing the port through
 * node:cluster, as server/src/server.ts does; each worker holds its own copy of the answers, as each server
 * worker holds its own answer cache.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const workersEnv = (process.env.WORKERS ?? '1').toLowerCase();
const workers = workersEnv === 'auto' ? Math.min(availableParallelism(), 64) : Math.max(1, Number(workersEnv) || 1);

/** The answers by request body: the header object (content-length included) and the body bytes of each. */
function readAnswers(file) {
  const answers = new Map();
  if (!file) return answers;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const [request, headers, text] = JSON.parse(line);
    const body = Buffer.from(text, 'utf8');
    answers.set(request, { headers: { ...headers, 'content-length': String(body.length) }, body });
  }
  return answers;
}

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const answers = readAnswers(process.env.FLOOR_ANSWERS);
  const missing = Buffer.from('{"code":404,"msg":"not held by the floor","data":null}');
  const missingHeaders = { 'content-type': 'application/json; charset=utf-8', 'content-length': missing.length };
  const server = createServer({ keepAlive: true }, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const answer = answers.get((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
      if (answer !== undefined) {
        res.writeHead(200, answer.headers);
        res.end(answer.body);
      } else {
        res.writeHead(req.method === 'GET' ? 200 : 404, missingHeaders);
        res.end(missing);
      }
    });
  });
  server.listen(port, host);
  process.on('SIGTERM', () => process.exit(0));
}
