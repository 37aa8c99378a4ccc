import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { parseEnv } from './src/config/env-schema.ts';
import { API_PREFIXES } from './src/config/api-paths.ts';

export default defineConfig(({ mode }) => {
  const raw = loadEnv(mode, process.cwd(), 'VITE_');
  // A bad or missing environment value stops the build (and the dev server) with a message naming its key.
  parseEnv(raw);
  const apiTarget = process.env.API_TARGET ?? `http://localhost:${process.env.API_PORT ?? '3001'}`;
  return {
    plugins: [react()],
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
