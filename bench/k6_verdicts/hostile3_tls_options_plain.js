// args: -u 1 -i 2
// TLS options copied from k6's docs into a test whose URLs are plain http: versions, cipher suites.
import http from "k6/http";
import { check } from "k6";

export const options = {
  tlsVersion: { min: http.TLS_1_2, max: http.TLS_1_3 },
  tlsCipherSuites: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"],
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, {
    ok: (r) => r.status === 200,
    "no tls on http": (r) => r.tls_version === "",
    "constants": () => http.TLS_1_2 === "tls1.2" && http.OCSP_STATUS_GOOD === "good",
  });
}
