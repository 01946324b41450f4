/**
 * Who a request is from, for the rate limits: the client address (the
 * connection's, a trusted balancer's header, or the host's own function), and
 * the subject it is counted as. An IPv6 client is counted on its /64 prefix:
 * one subscriber, one home or one server is handed a whole /64, and could
 * otherwise take a new address for every request. An IPv4 address, written
 * as such or IPv4-mapped (`::ffff:192.0.2.1`, how a dual-stack socket reports
 * it), is counted as itself. Edge-safe.
 */
import { lastForwarded, nodeAddress } from './forwarded.ts';
import { headerOf, socketAddress } from './incoming.ts';

export interface ClientAddressOptions {
  /**
   * A header set by a trusted load balancer (lower-case or not); its rightmost entry is used.
   * `Forwarded` (RFC 7239): the `for=` of its rightmost element, without its port.
   */
  clientAddressHeader?: string;
  /** Full control (overrides the header). */
  clientAddress?: (request: Request, env: unknown) => string | undefined;
}

/** Reads a request's client address as configured; `unknown` when there is none. */
export function clientAddressReader(options: ClientAddressOptions): (request: Request, env: unknown) => string {
  const custom = options.clientAddress;
  const header = options.clientAddressHeader?.toLowerCase();
  return (request, env) => {
    if (custom) return custom(request, env) ?? 'unknown';
    if (header === 'forwarded') {
      const address = nodeAddress(lastForwarded(headerOf(request, env, header)).for);
      if (address) return address;
    } else if (header) {
      const entries = (headerOf(request, env, header) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const last = entries[entries.length - 1];
      if (last) return last;
    }
    return socketAddress(env) ?? 'unknown';
  };
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/i;

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    // `::ffff:192.0.2.1` → `::ffff:c000:201`
    if (!IPV4.test(dotted)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  if (![...head, ...rest].every((g) => GROUP.test(g))) return null;
  const named = head.length + rest.length;
  if (halves.length === 1 ? named !== 8 : named > 7) return null;
  return [...head, ...Array<string>(8 - named).fill('0'), ...rest].map((g) => parseInt(g, 16));
}

/** What a client address is counted as: IPv4 as itself, IPv6 as its /64 (`2001:db8:1:2::/64`), anything else as given. */
export function rateLimitSubject(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (IPV4.test(bare)) return bare;
  if (!bare.includes(':')) return address;
  const groups = ipv6Groups(bare);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}
