// args: -u 1 -i 3
// k6/experimental/websockets in an async default: a promise resolved on the echo, awaited, then closed.
import { WebSocket } from "k6/experimental/websockets";
import { check } from "k6";

export const options = { thresholds: { ws_sessions: ["count==3"], checks: ["rate==1"] } };

export default async function () {
  const socket = new WebSocket("ws://127.0.0.1:18482/ws/echo");
  const echo = await new Promise((resolve, reject) => {
    socket.onopen = () => socket.send("ping-" + __ITER);
    socket.onmessage = (e) => resolve(e.data);
    socket.onerror = (e) => reject(new Error(String(e.error)));
  });
  check(echo, { "echo of this iteration": (d) => d === "ping-" + __ITER });
  const closed = new Promise((resolve) => (socket.onclose = () => resolve(true)));
  socket.close();
  check(await closed, { "closed": (c) => c === true });
}
