// Polyfills as bundles write them: TextEncoder set on globalThis only when missing, `global.URL` set to a
// small class, a `structuredClone` fallback by JSON; `typeof` guards in VU code read the script's own.
import http from "k6/http";
import { check } from "k6";

if (typeof TextEncoder === "undefined") {
  globalThis.TextEncoder = class {
    encode(s) {
      const bytes = unescape(encodeURIComponent(s)), out = new Uint8Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
      return out;
    }
  };
}
global.URL = class {
  constructor(href) {
    this.href = href;
    this.host = href.split("/")[2];
  }
};
if (typeof globalThis.structuredClone !== "function") {
  globalThis.structuredClone = (v) => JSON.parse(JSON.stringify(v));
}

export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };

export default function () {
  const url = new URL("http://127.0.0.1:18481/post");
  const res = http.post(url.href, new TextEncoder().encode("héllo").buffer);
  check(res, {
    "bytes sent": (r) => r.json("data").length === 5,
    "host": () => url.host === "127.0.0.1:18481",
    "clone": () => structuredClone({ a: [1] }).a[0] === 1,
    "btoa still missing": () => typeof btoa === "undefined",
  });
}
