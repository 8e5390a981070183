// args: -i 2
// TypeScript: options typed by hand, a userAgent of the team's, read back by the echo.
import http from "k6/http";
import { check } from "k6";

interface Agent {
  "user-agent": string;
}

export const options = {
  userAgent: "team-probe/1.0 (+ci)",
  thresholds: { checks: ["rate==1"] },
};

export default function (): void {
  const res = http.get("http://127.0.0.1:18481/user-agent");
  const body = res.json() as unknown as Agent;
  check(body, { "the option's agent": (b: Agent) => b["user-agent"] === "team-probe/1.0 (+ci)" });
}
