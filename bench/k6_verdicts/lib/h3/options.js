// A team's shared load profiles: every test spreads one and adds its own thresholds.
const toInt = (v, d) => (v === undefined || v === "" ? d : parseInt(v, 10));
const toBool = (v) => String(v).toLowerCase() === "true";

export const SMOKE = toBool(__ENV.SMOKE);

export const baseOptions = {
  vus: toInt(__ENV.VUS, 1),
  iterations: SMOKE ? toInt(__ENV.ITERS, 2) : undefined,
  duration: SMOKE ? undefined : "3s",
  thresholds: { http_req_failed: ["rate<0.01"] },
  tags: { suite: "catalog" },
};

export function thresholdsFor(name, p95Ms) {
  return {
    [`http_req_duration{name:${name}}`]: [`p(95)<${p95Ms}`],
    [`checks{name:${name}}`]: ["rate==1"],
  };
}
