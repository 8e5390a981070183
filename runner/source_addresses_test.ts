import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { expandSourceAddresses, MAX_SOURCE_ADDRESSES } from "./source_addresses.ts";

Deno.test("source addresses: lists, commas and IPv4 ranges expand in order, repeats once", () => {
  assertEquals(expandSourceAddresses("127.0.0.1-127.0.0.3"), ["127.0.0.1", "127.0.0.2", "127.0.0.3"]);
  assertEquals(expandSourceAddresses("10.0.0.255-10.0.1.0, 10.0.0.255"), ["10.0.0.255", "10.0.1.0"]);
  assertEquals(expandSourceAddresses(["::1", "fe80::1"]), ["::1", "fe80::1"]);
});

Deno.test("source addresses: an IPv4 CIDR is its addresses but, past two, the network's first and last", () => {
  assertEquals(expandSourceAddresses("127.0.0.2/31"), ["127.0.0.2", "127.0.0.3"]);
  assertEquals(expandSourceAddresses("10.0.0.5/30,10.0.0.9/32"), ["10.0.0.5", "10.0.0.6", "10.0.0.9"]);
  assertEquals(expandSourceAddresses("10.0.0.0/8"), {
    problem: `at most ${MAX_SOURCE_ADDRESSES} source addresses`,
  });
  assertEquals(expandSourceAddresses("10.0.0.0/33"), {
    problem: '"10.0.0.0/33": a CIDR is an IPv4 address and 0 to 32 bits, e.g. 10.0.0.0/24',
  });
});

Deno.test("source addresses: what is not an address or a range is named", () => {
  assertEquals(expandSourceAddresses(" , "), {
    problem: "names no address: write one, e.g. 127.0.0.1-127.0.0.4",
  });
  assertEquals(expandSourceAddresses("localhost"), { problem: '"localhost" is not an IP address' });
  assertEquals(expandSourceAddresses("127.0.0.9-127.0.0.1"), {
    problem: '"127.0.0.9-127.0.0.1": the range ends before it starts',
  });
  assertEquals(expandSourceAddresses("127.0.0.1-10"), {
    problem: '"127.0.0.1-10": a range is two IPv4 addresses, e.g. 127.0.0.1-127.0.0.4',
  });
  assertEquals(expandSourceAddresses("10.0.0.0-10.1.0.0"), {
    problem: `at most ${MAX_SOURCE_ADDRESSES} source addresses`,
  });
});
