/**
 * One pool of compiled route validators for the process. Fastify's own compiler (@fastify/ajv-compiler, the
 * copy Fastify itself loads, with its default options) keeps an Ajv per set of shared schemas and options, and
 * Ajv keeps each compiled schema by the schema object; Fastify builds a fresh pool for each instance, so each
 * app compiled every route's schemas again. A server runs one app and compiles them once either way; the test
 * suites build over a thousand apps in a worker, and compiling was a third of buildApp's CPU time (30 test apps:
 * 6.1 s -> 4.3 s CPU). The validators are Fastify's own, made with the same options: what a request is checked
 * against, coerced to and given by default is unchanged.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;
/** What Fastify asks the compiler for a route (the parts of @fastify/ajv-compiler's types used here). */
interface RouteSchema {
  schema: object;
  method: string;
  url: string;
  httpPart?: string;
}
type CompilerFromPool = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => unknown;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const pool = (fromFastify('@fastify/ajv-compiler') as () => CompilerFromPool)();

/**
 * Fastify's validator compiler from the process's pool. Fastify treats a compiler passed in as a custom one, which
 * changes one thing: it no longer lower-cases the keys of a `headers` schema. No route has one; a route that adds
 * one is refused when the app starts, instead of checking headers by case.
 */
const fromPool: CompilerFromPool = (externalSchemas, options) => {
  const compile = pool(externalSchemas, options);
  return (route) => {
    if (route.httpPart === 'headers') {
      throw new Error(
        `${route.method} ${route.url}: a headers schema needs Fastify's own compiler (validator-pool.ts)`,
      );
    }
    return compile(route);
  };
};
// The same function Fastify's own types describe (Ajv's or JTD's, by the options), typed here by what it uses.
export const pooledValidators = fromPool as unknown as ValidatorFactory;
