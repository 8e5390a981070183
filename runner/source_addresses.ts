/**
 * @module
 * The local addresses a run's connections come from (`--source-addresses`), past one's ~28,000 ports. Pure.
 */
/** node:net's `isIP`, the module loaded at the first call: it costs an isolate 20 ms of CPU to load. */
export const isIP = (text: string): number => process.getBuiltinModule("node:net").isIP(text);

export const MAX_SOURCE_ADDRESSES = 1024;

/** The addresses of `input`, ranges expanded, or the problem with it in words. */
export function expandSourceAddresses(input: string | readonly string[]): string[] | { problem: string } {
  const items = (typeof input === "string" ? [input] : input).flatMap((s) => s.split(","))
    .map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) return { problem: "names no address: write one, e.g. 127.0.0.1-127.0.0.4" };
  const out: string[] = [];
  for (const item of items) {
    const range = item.includes("-") && !item.includes(":") ? item.split("-") : [item];
    const expanded = item.includes("/")
      ? ipv4Cidr(item)
      : range.length > 1
      ? ipv4Range(range)
      : isIP(item) === 0
      ? { problem: `${JSON.stringify(item)} is not an IP address` }
      : [item];
    if ("problem" in expanded) return expanded;
    out.push(...expanded);
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
  return addresses(from, to);
}

/** An IPv4 CIDR's addresses, as k6 takes them: past two, without the network's first and last. */
function ipv4Cidr(text: string): string[] | { problem: string } {
  const [ip, bits] = text.split("/");
  if (isIP(ip) !== 4 || !/^\d+$/.test(bits ?? "") || Number(bits) > 32) {
    return {
      problem: `${JSON.stringify(text)}: a CIDR is an IPv4 address and 0 to 32 bits, e.g. 10.0.0.0/24`,
    };
  }
  const size = 2 ** (32 - Number(bits)),
    first = ipv4Number(ip) - ipv4Number(ip) % size,
    inner = size > 2 ? 1 : 0;
  return addresses(first + inner, first + size - 1 - inner);
}

function addresses(from: number, to: number): string[] | { problem: string } {
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
