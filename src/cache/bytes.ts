/**
 * Go's string order (bytewise UTF-8), which clusterctl's sorts and every stable listing here follow. JavaScript's
 * default `<` compares UTF-16 code units, which differs for characters outside the BMP.
 */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
