// args: -i 2
// Counters added in setup() and teardown() count with the iterations'.
import { Counter } from "k6/metrics";

const events = new Counter("events");

export const options = { thresholds: { events: ["count==13"] } };

export function setup() {
  events.add(5);
}

export default function () {
  events.add(1);
}

export function teardown() {
  events.add(6);
}
