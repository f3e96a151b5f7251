/** Builds the web client into dist/public: hashed names under assets/, each file also as .br and .gz. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = new URL('../dist/public/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/** Precompressed copies, made once at build so that the server never compresses per request. */
function precompress(): Plugin {
  return {
    name: 'parley-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
      for (const path of walk(OUT_DIR)) {
        if (!COMPRESSIBLE.test(path)) continue;
        const raw = readFileSync(path);
        writeFileSync(path + '.br', brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
        writeFileSync(path + '.gz', gzipSync(raw, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    // Brotli at its best quality takes a few seconds: known, and not worth a warning on every build.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  plugins: [precompress()],
  server: { proxy: { '/api': 'http://127.0.0.1:9991', '/user_uploads': 'http://127.0.0.1:9991' } },
});
