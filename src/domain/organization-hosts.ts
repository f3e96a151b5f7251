/**
 * Which organization a request's Host header names, and each organization's URL: the root URL
 * (PARLEY_EXTERNAL_URL) is the root organization's, subdomain `a` lives at `a.<root host>` with
 * the same scheme and port. A root on an IP address or `localhost` has no DNS to put subdomains
 * under, so its organizations live below `localhost` (RFC 6761: `*.localhost` is the loopback).
 */
import { parseIp } from './ip-ranges.js';

/** The root organization's subdomain. */
export const ROOT_SUBDOMAIN = '';
/** Host names that are the root, as Zulip's ROOT_SUBDOMAIN_ALIASES. */
const ROOT_ALIASES = new Set(['www']);
/** A subdomain: one DNS label, as Zulip's `check_subdomain` allows (letters, digits, inner hyphens). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether `subdomain` can name an organization ('' is the root). */
export function isValidSubdomain(subdomain: string): boolean {
  return subdomain === ROOT_SUBDOMAIN || (LABEL.test(subdomain) && !ROOT_ALIASES.has(subdomain));
}

/** A host without its port and trailing dots, in lower case (`A.Chat.example.com.:443` → `a.chat.example.com`). */
export function bareHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    return end < 0 ? name : name.slice(0, end + 1);
  }
  const colon = name.lastIndexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  return name.replace(/\.+$/, '');
}

const isAddress = (host: string) => parseIp(host.startsWith('[') ? host.slice(1, -1) : host) !== undefined;

/** The host that subdomains sit under: the root's, or `localhost` for a root on an address. */
function baseHost(rootHost: string): string {
  return isAddress(rootHost) || rootHost === 'localhost' ? 'localhost' : rootHost;
}

/**
 * The subdomain that `hostHeader` names under the root URL, or undefined for a name below the
 * root that cannot be an organization's (`a.b.<root>`, `-a.<root>`). As Zulip's `get_subdomain`:
 * a host not below the root is the root organization (`www.`, `localhost`, any IP address, a
 * load balancer's own name, an empty Host), so a single-organization install answers as before.
 */
export function subdomainOfHost(rootUrl: string, hostHeader: string): string | undefined {
  const host = bareHost(hostHeader);
  const base = baseHost(bareHost(new URL(rootUrl).host));
  if (!host.endsWith('.' + base)) return ROOT_SUBDOMAIN;
  const label = host.slice(0, -base.length - 1);
  if (ROOT_ALIASES.has(label)) return ROOT_SUBDOMAIN;
  return LABEL.test(label) ? label : undefined;
}

/** The URL of the organization at `subdomain` (no trailing slash). */
export function organizationUrl(rootUrl: string, subdomain: string): string {
  const root = new URL(rootUrl);
  const origin = `${root.protocol}//${root.host}`;
  if (subdomain === ROOT_SUBDOMAIN) return rootUrl.replace(/\/+$/, '');
  const port = root.port === '' ? '' : `:${root.port}`;
  return `${root.protocol}//${subdomain}.${baseHost(bareHost(root.host))}${port}${rootUrl.replace(/\/+$/, '').slice(origin.length)}`;
}
