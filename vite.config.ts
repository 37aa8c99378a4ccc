import { build, defineConfig, loadEnv, type Plugin, type Rollup } from 'vite';
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
import { devJsonImports } from './scripts/vite-dev-json-imports.ts';

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

/** The desktop home's first screen, rendered by the server (src/app/boot/home-first-screen.tsx). */
const HOME_FIRST_SCREEN = 'src/app/boot/home-first-screen.tsx';
/** Where its server build goes: a dot folder of dist/, which the server never sends (plugins/spa.ts). */
export const SERVER_OUT_DIR = 'dist/.server';
/** The chunks whose stylesheets the home page's first render needs: the layout's and the home page's. */
const HOME_MODULES = ['src/app/render-app.tsx', 'src/features/home/components/home-page.tsx'];

/** The stylesheets of the chunks that `modules` name, with those of every chunk they import (paths from /). */
function stylesheetsOf(bundle: Rollup.OutputBundle, modules: string[]): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(`/${file}`);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const module of modules) {
    const chunk = chunks.find((c) => c.facadeModuleId === path.resolve(module));
    if (!chunk) throw new Error(`The build has no chunk for ${module}`);
    visit(chunk);
  }
  return [...css];
}

/**
 * The first screens the server writes into the page (#16 mobile, #29 §5 desktop home): the image host the
 * server resolves the first screen's images on (the build's VITE_IMAGE_HOST), the stylesheets of the home
 * page's first render (the desktop first screen links them), and the loader that starts the app after the
 * first screen has been painted on a page the server sent without the module tag
 * (src/app/boot/first-screen-loader.ts). Once the site is built, the home page's server renderer is built
 * for Node into dist/.server/.
 */
function firstScreenPlugin(env: AppEnv, mode: string): Plugin {
  return {
    name: 'race-site-first-screen',
    apply: 'build',
    transformIndexHtml: (_html, ctx) => {
      if (!ctx.chunk || !ctx.bundle) throw new Error('index.html has no entry chunk');
      return [
        { tag: 'meta', attrs: { name: 'race-site-image-host', content: env.imageHost }, injectTo: 'head' },
        {
          tag: 'meta',
          attrs: { name: 'race-site-home-css', content: stylesheetsOf(ctx.bundle, HOME_MODULES).join(' ') },
          injectTo: 'head',
        },
        { tag: 'script', children: firstScreenPreloadScript(), injectTo: 'head-prepend' },
        { tag: 'script', children: firstScreenLoaderScript(`/${ctx.chunk.fileName}`), injectTo: 'body' },
      ];
    },
    async closeBundle() {
      await build({
        configFile: fileURLToPath(import.meta.url),
        mode,
        logLevel: 'warn',
        build: { ssr: HOME_FIRST_SCREEN, outDir: SERVER_OUT_DIR, emptyOutDir: true },
      });
    },
  };
}

export default defineConfig(({ mode, isSsrBuild }) => {
  const raw = loadEnv(mode, process.cwd(), 'VITE_');
  // A bad or missing environment value stops the build (and the dev server) with a message naming its key.
  const env = parseEnv(raw);
  const apiTarget = process.env.API_TARGET ?? `http://localhost:${process.env.API_PORT ?? '3001'}`;
  const alias = [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }];
  if (isSsrBuild) {
    // The desktop home's server renderer: a store reads as it stands (src/app/boot/server-store.ts).
    return {
      plugins: [react()],
      publicDir: false,
      resolve: {
        alias: [
          { find: /^zustand$/, replacement: fileURLToPath(new URL('./src/app/boot/server-store.ts', import.meta.url)) },
          {
            find: /^dompurify$/,
            replacement: fileURLToPath(new URL('./src/app/boot/server-no-rich-text.ts', import.meta.url)),
          },
          ...alias,
        ],
      },
      build: {
        target: 'node20',
        sourcemap: false,
        reportCompressedSize: false,
        rollupOptions: {
          output: { entryFileNames: '[name].js' },
          // The home page and its texts are imported here directly and lazily by the app: that is the point.
          onwarn(warning, warn) {
            if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
          },
        },
      },
    };
  }
  return {
    plugins: [react(), devJsonImports(), earlyFetchPlugin(env), firstScreenPlugin(env, mode), precompressPlugin()],
    resolve: { alias },
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
