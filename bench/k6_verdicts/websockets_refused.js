// args: -i 2
// k6/websockets on a port nothing listens on: an error event per socket, no throw, and a failed threshold.
import { WebSocket } from "k6/websockets";
import { check } from "k6";

export const options = { thresholds: { ws_msgs_received: ["count>0"], checks: ["rate==1"] } };

export default function () {
  const socket = new WebSocket("ws://127.0.0.1:18489/nothing");
  socket.onerror = (e) => check(e, { "an error event": (ev) => typeof ev.error === "string" });
  socket.onopen = () => socket.send("never");
}
