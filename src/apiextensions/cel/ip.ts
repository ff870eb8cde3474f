/**
 * IP addresses and CIDR prefixes for the Kubernetes CEL ip/cidr libraries: strict parsing (no IPv4-mapped IPv6, no
 * zones, no leading zeros), canonical text and the classification predicates of Go's net/netip.
 */
export interface IPAddress {
  readonly bytes: readonly number[];
}

function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(text: string): number[] | undefined {
  if (text.includes('%')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  let all: number[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return undefined;
    all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    if (head.length !== 8) return undefined;
    all = head;
  }
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

export function parseIP(text: string): IPAddress | undefined {
  if (text.includes(':')) {
    const bytes = parseIPv6(text);
    if (!bytes) return undefined;
    // IPv4-mapped IPv6 addresses are refused by Kubernetes' CEL ip library.
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return undefined;
    return { bytes };
  }
  const v4 = parseIPv4(text);
  return v4 ? { bytes: v4 } : undefined;
}

export function formatIP(ip: IPAddress): string {
  if (ip.bytes.length === 4) return ip.bytes.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export const family = (ip: IPAddress): number => (ip.bytes.length === 4 ? 4 : 6);
export const isUnspecified = (ip: IPAddress): boolean => ip.bytes.every((b) => b === 0);
export function isLoopback(ip: IPAddress): boolean {
  return ip.bytes.length === 4 ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1;
}
export function isLinkLocalMulticast(ip: IPAddress): boolean {
  const b = ip.bytes;
  return b.length === 4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
}
export function isLinkLocalUnicast(ip: IPAddress): boolean {
  const b = ip.bytes;
  return b.length === 4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
}
export function isGlobalUnicast(ip: IPAddress): boolean {
  const b = ip.bytes;
  if (b.length === 4 && b.every((x) => x === 255)) return false;
  const multicast = b.length === 4 ? (b[0]! & 0xf0) === 0xe0 : b[0] === 0xff;
  return !isUnspecified(ip) && !isLoopback(ip) && !multicast && !isLinkLocalUnicast(ip);
}

export interface CIDRPrefix {
  readonly ip: IPAddress;
  readonly prefix: number;
}

export function parseCIDR(text: string): CIDRPrefix | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (!ip || !/^(0|[1-9][0-9]*)$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > ip.bytes.length * 8) return undefined;
  return { ip, prefix };
}

export function maskIP(ip: IPAddress, prefix: number): IPAddress {
  return {
    bytes: ip.bytes.map((b, i) => {
      const keep = Math.max(0, Math.min(8, prefix - i * 8));
      return b & ((0xff << (8 - keep)) & 0xff);
    }),
  };
}

export function cidrContainsIP(c: CIDRPrefix, ip: IPAddress): boolean {
  if (ip.bytes.length !== c.ip.bytes.length) return false;
  return formatIP(maskIP(ip, c.prefix)) === formatIP(maskIP(c.ip, c.prefix));
}
