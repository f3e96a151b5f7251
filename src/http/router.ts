/**
 * The route table: method + path pattern → route. Patterns are relative to /api/v1 and may
 * hold typed parameters: `{id:int}` (a decimal integer), `{email:email}` (one segment holding
 * an `@`), `{name}` (any one segment) and `{rest:path}` (everything left, slashes included).
 * A static segment beats a parameter; parameters are tried in the order above.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The methods a route may serve (HEAD is served as GET; OPTIONS by the front). */
export const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

type ParamKind = 'int' | 'email' | 'string' | 'path';
const KIND_ORDER: ParamKind[] = ['int', 'email', 'string', 'path'];

interface Node<R> {
  statics: Map<string, Node<R>>;
  params: { kind: ParamKind; name: string; node: Node<R> }[];
  methods: Map<HttpMethod, R>;
}

export interface Match<R> {
  /** The routes at this path by method; empty when the path is unknown. */
  methods: ReadonlyMap<HttpMethod, R>;
  params: Record<string, string | number>;
}

/** The parameters of every path without any (frozen: a match's parameters are only read). */
const NO_PARAMS: Readonly<Record<string, string | number>> = Object.freeze({});

const newNode = <R>(): Node<R> => ({ statics: new Map(), params: [], methods: new Map() });

function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export class Router<R> {
  private readonly root: Node<R> = newNode();
  /**
   * Paths without parameters, looked up whole: the hot routes (`/users/me`) skip the walk, and
   * get their match made once (its parameters are empty and only read).
   */
  private readonly exact = new Map<string, Match<R>>();

  add(method: HttpMethod, pattern: string, route: R): void {
    let node = this.root;
    const segments = pattern.split('/').filter(Boolean);
    let hasParams = false;
    for (const segment of segments) {
      const param = /^\{(\w+)(?::(int|email|path))?\}$/.exec(segment);
      if (param) {
        hasParams = true;
        const kind = (param[2] as ParamKind | undefined) ?? 'string';
        let entry = node.params.find((p) => p.kind === kind && p.name === param[1]);
        if (!entry) {
          entry = { kind, name: param[1], node: newNode() };
          node.params.push(entry);
          node.params.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
        }
        node = entry.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    if (node.methods.has(method)) throw new Error(`duplicate route ${method} ${pattern}`);
    node.methods.set(method, route);
    if (!hasParams) this.exact.set('/' + segments.join('/'), { methods: node.methods, params: NO_PARAMS });
  }

  /** Finds the routes for `path` (already stripped of the /api/v1 prefix and query). */
  match(path: string): Match<R> | undefined {
    const exact = this.exact.get(path);
    if (exact) return exact;
    const segments = path.split('/').filter(Boolean);
    const params: Record<string, string | number> = {};
    const node = this.walk(this.root, segments, 0, params);
    return node ? { methods: node.methods, params } : undefined;
  }

  private walk(node: Node<R>, segments: string[], index: number, params: Record<string, string | number>): Node<R> | undefined {
    if (index === segments.length) return node.methods.size > 0 ? node : undefined;
    const segment = segments[index];
    const next = node.statics.get(segment);
    if (next) {
      const found = this.walk(next, segments, index + 1, params);
      if (found) return found;
    }
    for (const param of node.params) {
      if (param.kind === 'path') {
        const rest = decodeSegment(segments.slice(index).join('/'));
        if (rest === undefined || param.node.methods.size === 0) continue;
        params[param.name] = rest;
        return param.node;
      }
      const value = decodeSegment(segment);
      if (value === undefined) continue;
      if (param.kind === 'int') {
        if (!/^\d{1,15}$/.test(value)) continue;
        params[param.name] = Number(value);
      } else if (param.kind === 'email') {
        if (!value.includes('@')) continue;
        params[param.name] = value;
      } else {
        params[param.name] = value;
      }
      const found = this.walk(param.node, segments, index + 1, params);
      if (found) return found;
      delete params[param.name];
    }
    return undefined;
  }

  /** Every registered route, for listing and documentation. */
  *routes(): Generator<{ method: HttpMethod; pattern: string; route: R }> {
    const visit = function* (node: Node<R>, prefix: string): Generator<{ method: HttpMethod; pattern: string; route: R }> {
      for (const [method, route] of node.methods) yield { method, pattern: prefix || '/', route };
      for (const [segment, child] of node.statics) yield* visit(child, `${prefix}/${segment}`);
      for (const param of node.params) {
        const suffix = param.kind === 'string' ? '' : `:${param.kind}`;
        yield* visit(param.node, `${prefix}/{${param.name}${suffix}}`);
      }
    };
    yield* visit(this.root, '');
  }
}
