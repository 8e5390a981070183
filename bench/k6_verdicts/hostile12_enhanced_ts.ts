// args: -u 1 -i 2 --compatibility-mode=experimental_enhanced
// A TypeScript test run with the enhanced compatibility mode: interfaces, `satisfies`, optional chaining.
import http from "k6/http";
import { check } from "k6";
import type { Options } from "k6/options";

interface Probe {
  path: string;
  expect: number;
}

const probes = [{ path: "/get", expect: 200 }, { path: "/status/404", expect: 404 }] satisfies Probe[];

export const options: Options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] } };

export default function (): void {
  for (const p of probes) {
    const res = http.get(`http://127.0.0.1:18481${p.path}`);
    check(res, { [`${p.path} answers ${p.expect}`]: (r) => r.status === p.expect });
  }
}
