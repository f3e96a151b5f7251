/**
 * Loads uWebSockets.js and refuses to go on unless the native binding loaded: the package
 * silently falls back to a slow pure-JS server otherwise (STACK-NOTES #4).
 */
import { createRequire } from 'node:module';
import type * as UWS from '@trufflesuite/uws-js-unofficial';

export type UwsModule = typeof UWS;

export function loadUws(): UwsModule {
  const require = createRequire(import.meta.url);
  const uws = require('@trufflesuite/uws-js-unofficial') as UwsModule;
  if (typeof (uws as { getParts?: unknown }).getParts !== 'function') {
    throw new Error(
      `uWebSockets.js native binding did not load (Node ${process.version}, ABI ${process.versions.modules}); ` +
        'Parley needs Node 20 on Linux x64 and will not run on the slow fallback.',
    );
  }
  return uws;
}
