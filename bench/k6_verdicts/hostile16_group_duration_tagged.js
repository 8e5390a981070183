// args: -i 2
// group_duration by group tag: the nested group's duration, and a group never entered (no samples).
import http from "k6/http";
import { group, sleep } from "k6";

export const options = {
  thresholds: {
    "group_duration{group:::outer}": ["min>200"],
    "group_duration{group:::outer::inner}": ["max<2000", "min>=0"],
    "group_duration{group:::never}": ["max<1"],
  },
};

export default function () {
  group("outer", () => {
    sleep(0.25);
    group("inner", () => http.get("http://127.0.0.1:18481/get"));
  });
}
