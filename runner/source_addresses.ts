/**
 * @module
 * The local addresses a run's connections come from (`--source-addresses`), past one address's ~28,000 ports
 * per destination: addresses and IPv4 ranges, comma-separated or a list (127.x.y.z: loopback on Linux). Pure.
 */
import { isIP } from "node:net";

export const MAX_SOURCE_ADDRESSES = 1024;

/** The addresses of `input`, ranges expanded, or the problem with it in words. */
export function expandSourceAddresses(input: string | readonly string[]): string[] | { problem: string } {
  const items = (typeof input === "string" ? [input] : input).flatMap((s) => s.split(","))
    .map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) return { problem: "names no address: write one, e.g. 127.0.0.1-127.0.0.4" };
  const out: string[] = [];
  for (const item of items) {
    const range = item.includes("-") && !item.includes(":") ? item.split("-") : [item];
    if (range.length === 1) {
      if (isIP(item) === 0) return { problem: `${JSON.stringify(item)} is not an IP address` };
      out.push(item);
    } else {
      const expanded = ipv4Range(range);
      if ("problem" in expanded) return expanded;
      out.push(...expanded);
    }
    if (out.length > MAX_SOURCE_ADDRESSES) {
      return { problem: `at most ${MAX_SOURCE_ADDRESSES} source addresses` };
    }
  }
  return [...new Set(out)];
}

/** The addresses from `from` to `to` (IPv4, both included). */
function ipv4Range(parts: string[]): string[] | { problem: string } {
  const text = parts.join("-");
  if (parts.length !== 2 || isIP(parts[0]) !== 4 || isIP(parts[1]) !== 4) {
    return { problem: `${JSON.stringify(text)}: a range is two IPv4 addresses, e.g. 127.0.0.1-127.0.0.4` };
  }
  const [from, to] = parts.map(ipv4Number);
  if (to < from) return { problem: `${JSON.stringify(text)}: the range ends before it starts` };
  if (to - from >= MAX_SOURCE_ADDRESSES) {
    return { problem: `at most ${MAX_SOURCE_ADDRESSES} source addresses` };
  }
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  return out;
}

function ipv4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}
