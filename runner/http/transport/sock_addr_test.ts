/**
 * Unit tests of the socket address encoding: `sockaddr_in` and `sockaddr_in6` bytes, IPv6 literals in
 * their compressed forms, and the malformed addresses and ports that throw. Pure: no FFI, no socket.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { AF_INET, AF_INET6, ipv6Bytes, sockAddrOf } from "./sock_addr.ts";

Deno.test("sockAddrOf: sockaddr_in and sockaddr_in6 bytes, port in network order", () => {
  const v4 = sockAddrOf("127.0.0.1", 8080);
  assertEquals(v4.family, AF_INET);
  assertEquals([...v4.bytes], [AF_INET, 0, 0x1f, 0x90, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  const v6 = sockAddrOf("::1", 443);
  assertEquals(v6.family, AF_INET6);
  assertEquals(v6.bytes.length, 28);
  assertEquals([...v6.bytes.subarray(0, 4)], [AF_INET6, 0, 0x01, 0xbb]);
  assertEquals([...v6.bytes.subarray(8, 24)], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals(v6.text, "[::1]:443");
});

Deno.test("ipv6Bytes: compressed forms, an IPv4 tail, a zone; malformed ones throw", () => {
  assertEquals([...ipv6Bytes("fe80::1%eth0")], [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals([...ipv6Bytes("::ffff:1.2.3.4")].slice(10), [0xff, 0xff, 1, 2, 3, 4]);
  assertEquals([...ipv6Bytes("1:2:3:4:5:6:7:8")].slice(14), [0, 8]);
  for (const bad of ["1::2::3", "1:2:3", "12345::", "g::1", "1:2:3:4:5:6:7:8:9"]) {
    throws(() => ipv6Bytes(bad), RangeError, bad);
  }
  throws(() => sockAddrOf("300.0.0.1", 80), RangeError);
  throws(() => sockAddrOf("127.0.0.1", 70000), RangeError);
});
