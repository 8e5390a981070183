/**
 * @module
 * The built-in HTTP balancer in front of N instances of the built-in target (docs/studies/cpu-sleep.md put
 * NGINX in front of a Node cluster). Balancing is per request, not per connection, so a load generator with a
 * few keep-alive connections still spreads. `least-connections` counts requests in flight per instance and
 * breaks ties round-robin; docs/studies/frameworks.md recommends it while instances are still warming up
 * (slow ones accumulate in-flight requests and get fewer new ones).
 */
import { badGateway, toResponse, Upstream } from "./forward.ts";

export type BalanceMode = "round-robin" | "least-connections";

export interface Balancer {
  fetch(req: Request): Promise<Response>;
  /** Requests sent to each instance, in upstream order. */
  sent: number[];
  close(): void;
}

/** Picks an instance index: pure so the policy can be tested without sockets. */
export function pickInstance(mode: BalanceMode, inFlight: number[], next: number): number {
  if (mode === "round-robin") return next % inFlight.length;
  let best = -1;
  for (let k = 0; k < inFlight.length; k++) {
    const i = (next + k) % inFlight.length;
    if (best === -1 || inFlight[i] < inFlight[best]) best = i;
  }
  return best;
}

export function createBalancer(upstreamUrls: string[], mode: BalanceMode): Balancer {
  const upstreams = upstreamUrls.map((u) => new Upstream(u));
  const inFlight = upstreams.map(() => 0);
  const sent = upstreams.map(() => 0);
  let next = 0;
  return {
    sent,
    async fetch(req) {
      const i = pickInstance(mode, inFlight, next++);
      inFlight[i]++;
      sent[i]++;
      try {
        return toResponse(await upstreams[i].send(req));
      } catch (err) {
        return badGateway(upstreams[i].baseUrl, err);
      } finally {
        inFlight[i]--;
      }
    },
    close() {
      for (const u of upstreams) u.close();
    },
  };
}
