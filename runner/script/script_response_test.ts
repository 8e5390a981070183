import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mayHaveSetCookie } from "./script_response.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("mayHaveSetCookie finds a Set-Cookie line of the head, in any case, and none past the head", () => {
  const cases: Array<[string, boolean]> = [
    ["HTTP/1.1 200 OK\r\nServer: x\r\nSet-Cookie: a=b\r\n\r\n", true],
    ["HTTP/1.1 200 OK\nSET-COOKIE: a=b\n\n", true],
    ["HTTP/1.1 200 OK\r\nset-cookie:a\r\n\r\n", true],
    ["HTTP/1.1 200 OK\r\nSet-Cookie:", true],
    ["HTTP/1.1 200 OK\r\nSet-Cookie", false],
    ["HTTP/1.1 200 OK\r\nSet-Cookies: a\r\n\r\n", false],
    ["HTTP/1.1 200 OK\r\nX-Set-Cookie: a\r\nServer: set-cookie: a\r\n\r\n", false],
    ["HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\nSet-Cookie: a=b", false],
    ["HTTP/1.1 200 OK\n\nSet-Cookie: a=b\n", false],
    ["HTTP/1.1 200 OK\r\nServer: x\r\n", false],
    ["", false],
  ];
  assertEquals(cases.map(([head]) => mayHaveSetCookie(bytes(head))), cases.map(([, found]) => found));
});
