// args: -i 2
// Closing at once: k6/websockets counts no echo that comes after close(); k6/ws's close() sends 1001 and
// its close handler gets that code.
import { WebSocket } from "k6/websockets";
import ws from "k6/ws";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: {
    "ws_msgs_received{module:websockets}": ["count==0"],
    "ws_msgs_sent{module:websockets}": ["count==6"],
    "ws_msgs_received{module:ws}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  const socket = new WebSocket(WS, null, { tags: { module: "websockets" } });
  let heard = 0;
  socket.onopen = () => {
    socket.send("a");
    socket.send("b");
    socket.close();
  };
  socket.onmessage = () => heard++;
  socket.onclose = (e) =>
    check(e, { "closed with 1000, no echo heard": (ev) => ev.code === 1000 && heard === 0 });
  ws.connect(WS, { tags: { module: "ws" } }, (s) => {
    s.on("open", () => s.send("c"));
    s.on("message", () => s.close());
    s.on("close", (code) => check(code, { "k6/ws closes with 1001": (c) => c === 1001 }));
  });
}
