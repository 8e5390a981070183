/**
 * Truth table, every request rate-limited: a server answering 429 to everything. As in k6 (whose
 * `http_req_failed` reads 100% and which exits 0 without a threshold), the run got answers, so it is not
 * `failed` and exits 0; it is `no success`, and the verdict names the status that came back instead, so a
 * CI summary's one line says the run measured the rate limiter, not the service. `--strict` exits 6.
 */
import { assertAttack, assertRun, type VerdictClass, withStatusServer } from "./truth_table.ts";

const rateLimited = (url: string): VerdictClass => ({
  url,
  label: /^no success: not one response was 2xx\/3xx \(429 \d+\)$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("429 only: attack says no success (429 N), exit 0, exit 6 under --strict", async () => {
  await withStatusServer(429, (url) => assertAttack(rateLimited(url)));
});

Deno.test("429 only: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  await withStatusServer(429, (url) => assertRun(rateLimited(url)));
});
