/**
 * Which `Host` names the gateway answers for, and which `Origin`s may open
 * a WebSocket (DNS rebinding: a page on `evil.example` whose name is made
 * to resolve to the gateway's address reaches it with `Host: evil.example`,
 * and with `Origin: http://evil.example`, so neither the page's origin
 * matching the request's own `Host` nor the address the request came in on
 * proves anything; only the name does).
 *
 * Names are compared without the port: behind a proxy the port a browser
 * used is not the port the gateway listens on.
 */
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/**
 * The host name of a `Host` header value or a URL authority: lower case,
 * without the port, the IPv6 brackets or a trailing dot; undefined when
 * there is none.
 */
export function hostNameOf(authority: string): string | undefined {
  const value = authority.trim().toLowerCase();
  let name: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return undefined;
    name = value.slice(1, end);
  } else {
    const colons = value.split(':').length - 1;
    // One colon separates the port; more are a bare IPv6 address.
    name = colons === 1 ? value.slice(0, value.indexOf(':')) : value;
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name === '' ? undefined : name;
}

/** A configured name or bind address as `hostNameOf` spells it; a bare IPv6 address has no port to strip. */
function nameOfEntry(entry: string): string {
  const bracketed = entry.includes(':') && !entry.startsWith('[') ? `[${entry}]` : entry;
  return hostNameOf(bracketed) ?? '';
}

const loopbackNames = ['localhost', '127.0.0.1', '::1'] as const;

const isLoopback = (name: string): boolean =>
  name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);

/**
 * The names a gateway bound to `bindHost` answers for by default: that
 * address or name; every local interface address and the machine's host
 * name when bound to every interface (`0.0.0.0`, `::`); and `localhost`,
 * `127.0.0.1` and `::1` whenever loopback is reachable.
 */
export function defaultAllowedHosts(bindHost: string): string[] {
  const bound = nameOfEntry(bindHost);
  const names = new Set<string>();
  if (bound === '' || bound === '0.0.0.0' || bound === '::') {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.toLowerCase().replace(/%.*$/, ''));
    }
    names.add(hostname().toLowerCase());
    for (const name of loopbackNames) names.add(name);
  } else {
    names.add(bound);
    if (isLoopback(bound)) for (const name of loopbackNames) names.add(name);
  }
  return [...names];
}

/**
 * Whether `entry` can be a `GATEWAY_ALLOWED_HOSTS` item: `*`, a host name
 * or an IP address, without scheme, port or path.
 */
export function isAllowedHostEntry(entry: string): boolean {
  if (entry === '*') return true;
  const bare = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
  if (isIP(bare) !== 0) return true;
  return /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i.test(entry);
}

export interface HostPolicyOptions {
  /** Allowed host names; `*` allows any. */
  readonly allowedHosts: readonly string[];
  /** `GATEWAY_CORS_ORIGINS`: full origins (`https://app.example.org`) that may open a WebSocket. */
  readonly corsOrigins: readonly string[];
  /**
   * Every loopback origin (`http://localhost:*`, `http://127.0.0.1:*`,
   * `http://[::1]:*`, https too) counts as a CORS origin: on the embedded
   * sandbox, so that a front-end dev server on another port works with no
   * setting (no real allowance to protect there). @default false
   */
  readonly loopbackOrigins?: boolean;
}

/** The loopback names a dev server's page is served from. */
const loopbackOriginNames: ReadonlySet<string> = new Set(loopbackNames);

/** `scheme://host:port` as a browser sends it in `Origin`, or the entry unchanged when it is not a URL. */
function normalOrigin(entry: string): string {
  try {
    return new URL(entry).origin;
  } catch {
    return entry;
  }
}

/** Distinct `Host` values whose verdicts a policy remembers. */
const rememberedHosts = 64;

export class HostPolicy {
  private readonly names: ReadonlySet<string>;
  private readonly anyHost: boolean;
  private readonly corsOrigins: ReadonlySet<string>;
  private readonly loopbackOrigins: boolean;
  /** `allowsHost`'s verdict by `Host` value, at most `rememberedHosts` of them. */
  private readonly hostVerdicts = new Map<string, boolean>();

  constructor(options: HostPolicyOptions) {
    this.anyHost = options.allowedHosts.includes('*');
    this.names = new Set(options.allowedHosts.map(nameOfEntry));
    // `http://localhost:5173/` and `http://LOCALHOST:5173` are the origin a browser sends as `http://localhost:5173`.
    this.corsOrigins = new Set(options.corsOrigins.map(normalOrigin));
    this.loopbackOrigins = options.loopbackOrigins ?? false;
  }

  /** Whether a page of `origin` (as `Origin` carries it) may call the gateway cross-origin (CORS). */
  allowsCorsOrigin(origin: string): boolean {
    if (this.corsOrigins.has(origin)) return true;
    if (!this.loopbackOrigins) return false;
    try {
      const url = new URL(origin);
      const name = hostNameOf(url.host);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') && name !== undefined && loopbackOriginNames.has(name)
      );
    } catch {
      return false;
    }
  }

  /**
   * A request without `Host` (HTTP/1.0 tools) is let through: a browser
   * always sends one, so its absence is no rebinding.
   */
  allowsHost(host: string | undefined): boolean {
    if (host === undefined) return true;
    if (this.anyHost) return true;
    // Every request asks with the same few values: each verdict is worked out once (trimming, lower-casing and
    // splitting it was about 1 % of a result-cache hit's CPU). Bounded: past `rememberedHosts` distinct values
    // (a client making up names) the memory starts over.
    const known = this.hostVerdicts.get(host);
    if (known !== undefined) return known;
    const name = hostNameOf(host);
    const allowed = name !== undefined && this.names.has(name);
    if (this.hostVerdicts.size >= rememberedHosts) this.hostVerdicts.clear();
    this.hostVerdicts.set(host, allowed);
    return allowed;
  }

  /**
   * An `Origin` may open a WebSocket when it is absent (not a browser), a
   * configured CORS origin, or a page of the gateway itself: its host name is
   * an allowed name. With `*` allowed hosts there is no list of own names,
   * so a page of the gateway is one whose host name is the request's `Host`
   * name (which `*` already trusts).
   */
  allowsOrigin(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined || origin === '') return true;
    if (this.allowsCorsOrigin(origin)) return true;
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      originHost = hostNameOf(url.host);
    } catch {
      return false;
    }
    if (originHost === undefined) return false;
    if (this.anyHost) return host !== undefined && hostNameOf(host) === originHost;
    return this.names.has(originHost);
  }
}
