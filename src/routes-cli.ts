/** `npm run routes`: prints the URL table (src/api/routes.ts), one route a line: method, path, view, schema, auth; root routes (outside /api/v1) last. */
import { ROOT_ROUTES, ROUTES } from './api/routes.js';

const rows = [
  ...ROUTES.map((r) => [r.method, '/api/v1' + r.path, r.view.name, r.schema.$id, r.auth]),
  ...ROOT_ROUTES.map((r) => [r.method, r.path, r.view.name, r.schema.$id, r.auth]),
];
const header = ['METHOD', 'PATH', 'VIEW', 'SCHEMA', 'AUTH'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
process.stdout.write([line(header), ...rows.map(line)].join('\n') + '\n');
