// args: -u 1 -i 3
// A group_duration threshold a slow group breaks (the team's SLA per page), with abortOnFail off and a
// group around an asyncRequest awaited outside it.
import http from "k6/http";
import { group, sleep } from "k6";

export const options = {
  thresholds: {
    "group_duration{group:::slow page}": ["avg<200"],
    "group_duration{group:::fast page}": ["avg<2000"],
    "group_duration{group:::async page}": ["max<2000"],
  },
};

export default async function () {
  group("fast page", () => {
    http.get("http://127.0.0.1:18481/get");
  });
  group("slow page", () => {
    http.get("http://127.0.0.1:18481/delay/0.3");
  });
  const pending = group("async page", () => http.asyncRequest("GET", "http://127.0.0.1:18482/get"));
  await pending;
  sleep(0.05);
}
