// The team's shared load profile and gates, imported by each test.
export const options = {
  scenarios: {
    smoke: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "1s" },
  },
  thresholds: { http_req_failed: ["rate==0"], checks: ["rate==1"], iterations: ["count>1"] },
};

export const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
