/**
 * @module
 * The HPACK static table (RFC 7541 Appendix A) and the layout HPACK's and QPACK's static tables share.
 */

/** Static entries: `name` with each of `values`, in order. */
export const each = (name: string, ...values: string[]) => values.map((value) => [name, value] as const);

/** Static entries of the space-separated `names`, each with no value. */
export const valueless = (names: string) => names.split(" ").map((name) => [name, ""] as const);

/** [name, value] of static index i + 1. */
export const STATIC_TABLE: readonly (readonly [string, string])[] = [
  [":authority", ""],
  ...each(":method", "GET", "POST"),
  ...each(":path", "/", "/index.html"),
  ...each(":scheme", "http", "https"),
  ...each(":status", "200", "204", "206", "304", "400", "404", "500"),
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ...valueless(
    "accept-language accept-ranges accept access-control-allow-origin age allow authorization " +
      "cache-control content-disposition content-encoding content-language content-length " +
      "content-location content-range content-type cookie date etag expect expires from host if-match " +
      "if-modified-since if-none-match if-range if-unmodified-since last-modified link location " +
      "max-forwards proxy-authenticate proxy-authorization range referer refresh retry-after server " +
      "set-cookie strict-transport-security transfer-encoding user-agent vary via www-authenticate",
  ),
];

/** What a static entry's name is to the field rules, so that a decoder never compares its bytes. */
export const KIND_BYTES = 0;
export const KIND_STATUS = 1;
export const KIND_LENGTH = 2;
export const KIND_CONNECTION = 3;
const KIND_OTHER = 4;

/** The connection-specific fields HTTP/2 and HTTP/3 refuse (RFC 9113 8.2.2, RFC 9114 4.2), but `te`. */
export const CONNECTION_NAMES: ReadonlySet<string> = new Set(
  "connection keep-alive proxy-connection transfer-encoding upgrade".split(" "),
);

/** A static table whose first index is `first`: entry i's name at `bytes[nameOff[i]]`, its value after it. */
export class StaticTable {
  readonly bytes: Uint8Array;
  readonly nameOff: Int32Array;
  readonly nameLen: Int32Array;
  readonly valueLen: Int32Array;
  /** A KIND_* per index. */
  readonly kind: Uint8Array;
  /** The index of each name (its first entry) and of each `name\0value` pair. */
  readonly names = new Map<string, number>();
  readonly pairs = new Map<string, number>();
  readonly end: number;

  constructor(entries: readonly (readonly [string, string])[], readonly first: number) {
    this.end = first + entries.length;
    this.bytes = new TextEncoder().encode(entries.map(([n, v]) => n + v).join(""));
    this.nameOff = new Int32Array(this.end);
    this.nameLen = new Int32Array(this.end);
    this.valueLen = new Int32Array(this.end);
    this.kind = new Uint8Array(this.end);
    let off = 0;
    entries.forEach(([n, v], i) => {
      const at = first + i;
      this.nameOff[at] = off;
      this.nameLen[at] = n.length;
      this.valueLen[at] = v.length;
      this.kind[at] = n === ":status"
        ? KIND_STATUS
        : n === "content-length"
        ? KIND_LENGTH
        : CONNECTION_NAMES.has(n)
        ? KIND_CONNECTION
        : KIND_OTHER;
      if (!this.names.has(n)) this.names.set(n, at);
      this.pairs.set(`${n}\0${v}`, at);
      off += n.length + v.length;
    });
  }
}

export const HPACK_STATIC = new StaticTable(STATIC_TABLE, 1);
