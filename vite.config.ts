import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { parseEnv, type AppEnv } from './src/config/env-schema.ts';
import { API_PREFIXES } from '#contract/api';
import { earlyFetchPlan, earlyFetchScript } from './src/app/boot/early-fetch.ts';
import { firstScreenLoaderScript, firstScreenPreloadScript } from './src/app/boot/first-screen-loader.ts';
import { earlyMobileRedirectScript } from './src/lib/mobile-redirect.ts';

/**
 * Every built script, stylesheet and SVG of 1 KB or more also as .br (brotli 11) and .gz (gzip 9), made once
 * here: the bundled server sends them as they are (about 12% less than on-the-fly compression for phones).
 */
function precompressPlugin(): Plugin {
  return {
    name: 'race-site-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = path.join(outDir, name);
        const bytes = await readFile(file);
        if (bytes.length < 1024) continue;
        const brotli = brotliCompressSync(bytes, {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        await writeFile(`${file}.br`, brotli);
        await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * index.html starts the start-up requests inline, before the app's JS arrives (src/app/boot/early-fetch.ts);
 * first of all, a phone on the desktop address goes to the mobile site (src/lib/mobile-redirect.ts).
 */
function earlyFetchPlugin(env: AppEnv): Plugin {
  const script = earlyFetchScript(earlyFetchPlan(env));
  const redirect = earlyMobileRedirectScript(env.mobileSiteUrl);
  return {
    name: 'race-site-early-fetch',
    transformIndexHtml: () => [
      ...(redirect ? [{ tag: 'script', children: redirect, injectTo: 'head-prepend' as const }] : []),
      { tag: 'script', children: script, injectTo: 'head' },
    ],
  };
}

/**
 * The mobile site's first screen (#16): the image host the server resolves the first screen's images on (the
 * build's VITE_IMAGE_HOST), and the loader that starts the app after the first screen has been painted on a
 * page the server sent without the module tag (src/app/boot/first-screen-loader.ts).
 */
function firstScreenPlugin(env: AppEnv): Plugin {
  return {
    name: 'race-site-first-screen',
    apply: 'build',
    transformIndexHtml: (_html, ctx) => {
      if (!ctx.chunk) throw new Error('index.html has no entry chunk');
      return [
        { tag: 'meta', attrs: { name: 'race-site-image-host', content: env.imageHost }, injectTo: 'head' },
        { tag: 'script', children: firstScreenPreloadScript(), injectTo: 'head-prepend' },
        { tag: 'script', children: firstScreenLoaderScript(`/${ctx.chunk.fileName}`), injectTo: 'body' },
      ];
    },
  };
}

export default defineConfig(({ mode }) => {
  const raw = loadEnv(mode, process.cwd(), 'VITE_');
  // A bad or missing environment value stops the build (and the dev server) with a message naming its key.
  const env = parseEnv(raw);
  const apiTarget = process.env.API_TARGET ?? `http://localhost:${process.env.API_PORT ?? '3001'}`;
  return {
    plugins: [react(), earlyFetchPlugin(env), firstScreenPlugin(env), precompressPlugin()],
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    server: {
      port: Number(process.env.PORT ?? 5173),
      proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
    },
    build: {
      target: 'es2020',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 800,
    },
  };
});
