/**
 * @module
 * The targets of `deno task bench --h2` (bench/h2.ts), each serving h2 over TLS by ALPN with a throwaway
 * certificate and pinned to CPU 0 when the bench pins: nginx (`listen ... ssl http2`, one worker,
 * `return 200`) and the built-in target as `loadlab serve` runs it. Each names its process, so every
 * round can say how much CPU the target spent per request and how busy it was.
 */
import { startNginx } from "./nginx.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { startTarget } from "../targets/start.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";

export const TARGETS = ["nginx", "builtin"] as const;
export type TargetName = typeof TARGETS[number];

/** A target serving h2 over TLS for the bench, up until `stop`. */
export interface BenchTarget {
  name: TargetName;
  /** What it is, for the printout and the record. */
  label: string;
  url: string;
  caFile: string;
  /** Its process (nginx's master, whose workers are its children): the bench reads its CPU time. */
  pid: number | null;
  /** nginx's own count of requests (streams) served: the bench's steady rate; absent for the built-in. */
  requestsServed?: () => Promise<number | null>;
  stop(): Promise<void>;
}

/** nginx, one worker, `return 200`, h2 over TLS 1.3 with the bench's throwaway certificate in `dir`. */
async function startNginxH2(dir: string, pinTarget: string[]): Promise<BenchTarget> {
  const pair = await selfSignedPair();
  await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
  await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
  await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem, { mode: 0o600 });
  // Debian installs nginx in /usr/sbin, which is not on every user's PATH.
  const nginxPath = findProgram("nginx") ?? (isExecutable("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx");
  const nginx = await startNginx(nginxPath, pinTarget, {
    directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ssl_protocols TLSv1.3;`,
  }, true);
  return {
    name: "nginx",
    label: "nginx 1 worker, return 200, h2 over TLS 1.3",
    url: nginx.url,
    caFile: `${dir}/ca.pem`,
    pid: nginx.pid,
    requestsServed: nginx.requestsServed,
    stop: () => nginx.stop(),
  };
}

/**
 * The built-in target as `loadlab serve` runs it, one process, with a self-signed certificate (h2 by
 * ALPN, Deno.serve's), `GET /` (its fast path's hello text); on CPU 0 when the bench pins.
 */
async function startBuiltinH2(dir: string, pinned: boolean): Promise<BenchTarget> {
  const target = await startTarget(
    { kind: "builtin", tls: "self-signed", ...(pinned ? { cpuAffinity: [0] } : {}) },
    { logDir: dir },
  );
  return {
    name: "builtin",
    label: "built-in target, 1 process, GET /, h2 over TLS by ALPN (Deno.serve)",
    url: `${target.url}/`,
    caFile: target.caFile!,
    pid: target.processes[0]?.pid ?? null,
    stop: () => target.stop(),
  };
}

export async function startTargets(
  names: readonly TargetName[],
  dir: string,
  pinTarget: string[],
): Promise<BenchTarget[]> {
  const started: BenchTarget[] = [];
  try {
    for (const name of names) {
      const sub = await Deno.makeTempDir({ dir, prefix: `${name}-` });
      started.push(
        name === "nginx"
          ? await startNginxH2(sub, pinTarget)
          : await startBuiltinH2(sub, pinTarget.length > 0),
      );
    }
    return started;
  } catch (err) {
    for (const t of started) await t.stop();
    throw err;
  }
}
