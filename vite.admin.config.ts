import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The organiser console (admin/): its own build into dist/admin/, served by the server at /admin/. Nothing of
 * it is in the public site's build (vite.config.ts), so a visitor never downloads a line of it. `npm run
 * build` builds the site first (which empties dist/), then this.
 */
export default defineConfig(() => {
  const apiTarget = process.env.API_TARGET ?? `http://localhost:${process.env.API_PORT ?? '3001'}`;
  return {
    root: 'admin',
    base: '/admin/',
    plugins: [react()],
    // The site's favicon is served from the site's root, not copied again.
    publicDir: false as const,
    server: {
      port: Number(process.env.ADMIN_PORT ?? 5174),
      proxy: { '/api/admin': { target: apiTarget, changeOrigin: false } },
    },
    build: {
      outDir: '../dist/admin',
      emptyOutDir: true,
      target: 'es2020',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1500,
    },
  };
});
