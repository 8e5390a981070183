// Users shared across VUs, from the config's list.
import { SharedArray } from "k6/data";
import { config } from "./config.js";
export const users = new SharedArray("h8 users", () => config.users.map((name, i) => ({ name, id: i + 1 })));
export function userFor(vu) {
  return users[(vu - 1) % users.length];
}
