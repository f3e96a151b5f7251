/**
 * `npm run routes`: prints every path the server answers, one route a line: method, path, view,
 * schema, auth. The URL table (src/api/routes.ts) first, then the root routes (outside /api/v1),
 * the pages (no schema: `-`) and the paths the front answers itself (`/health`, `/static/`).
 */
import { PAGE_ROUTES, ROOT_ROUTES, ROUTES } from './api/routes.js';
import { FRONT_PATHS } from './http/front.js';

const rows = [
  ...ROUTES.map((r) => [r.method, '/api/v1' + r.path, r.view.name, r.schema.$id, r.auth]),
  ...ROOT_ROUTES.map((r) => [r.method, r.path, r.view.name, r.schema.$id, r.auth]),
  ...PAGE_ROUTES.map((r) => [r.method, r.path, r.view.name, '-', 'none']),
  ...FRONT_PATHS.map((r) => [r.method, r.path, r.view, '-', 'none']),
];
const header = ['METHOD', 'PATH', 'VIEW', 'SCHEMA', 'AUTH'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
process.stdout.write([line(header), ...rows.map(line)].join('\n') + '\n');
