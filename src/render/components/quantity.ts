/**
 * `resource.Quantity` canonical form (k8s.io/apimachinery/pkg/api/resource): what a quantity becomes after a typed
 * round-trip. `1000m` → `1`, `0.5` → `500m`, `1.5Gi` → `1536Mi`, `1e3` → `1e3`. Unparseable values are returned as
 * they are (the Go conversion would fail; we leave the judgement to the API server).
 */

const BIN: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DEC: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DEC_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BIN_SUFFIX: Record<number, string> = { 0: '', 10: 'Ki', 20: 'Mi', 30: 'Gi', 40: 'Ti', 50: 'Pi', 60: 'Ei' };

/** value = num / den exactly, as BigInt rational. */
interface Rat {
  num: bigint;
  den: bigint;
}

function parse(s: string): { r: Rat; format: 'bin' | 'dec' | 'exp' } | null {
  const m = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(.*)$/.exec(s);
  if (!m) return null;
  const [, sign, numStr, suffix] = m as unknown as [string, string, string, string];
  const [ip, fp = ''] = numStr.split('.') as [string, string?];
  let num = BigInt((ip || '0') + fp);
  let den = 10n ** BigInt(fp.length);
  if (sign === '-') num = -num;
  let format: 'bin' | 'dec' | 'exp';
  if (suffix in BIN) {
    num *= 2n ** BigInt(BIN[suffix] as number);
    format = 'bin';
  } else if (suffix in DEC) {
    const e = DEC[suffix] as number;
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
    format = 'dec';
  } else {
    const em = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (!em) return null;
    const e = Number(em[1]);
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
    format = 'exp';
  }
  return { r: { num, den }, format };
}

/** Rounds up to nano precision (Quantity keeps at most 9 decimal places, rounding away from zero... up). */
function toNano(r: Rat): bigint {
  const n = r.num * 10n ** 9n;
  let q = n / r.den;
  if (q * r.den !== n && n > 0n) q += 1n;
  return q;
}

export function canonicalQuantity(v: string | number): string | number {
  const s = typeof v === 'number' ? String(v) : v.trim();
  const p = parse(s);
  if (!p) return v;
  const nano = toNano(p.r);
  if (nano === 0n) return '0';
  const neg = nano < 0n;
  const abs = neg ? -nano : nano;
  const sign = neg ? '-' : '';
  if (p.format === 'bin' && abs % 10n ** 9n === 0n) {
    const whole = abs / 10n ** 9n;
    let e = 0;
    let x = whole;
    while (e < 60 && x % 1024n === 0n) {
      x /= 1024n;
      e += 10;
    }
    return sign + x.toString() + BIN_SUFFIX[e];
  }
  // decimal (also binary values with a fraction): largest exponent multiple of 3 keeping an integer mantissa
  let e = -9;
  let x = abs;
  while (e < 18 && x % 1000n === 0n) {
    x /= 1000n;
    e += 3;
  }
  if (p.format === 'exp') {
    return sign + x.toString() + (e === 0 ? '' : `e${e}`);
  }
  return sign + x.toString() + DEC_SUFFIX[e];
}
