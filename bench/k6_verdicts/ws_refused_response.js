// args: -i 2
// k6/ws on a port nothing listens on: a response with status 0 and its error, no throw, a session counted;
// k6/websockets' bufferedAmount until the VU's loop hears a send was written, and its extensions.
import ws from "k6/ws";
import { WebSocket } from "k6/websockets";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: { ws_sessions: ["count==4"], "ws_sessions{module:ws}": ["count==2"], checks: ["rate==1"] },
};

export default function () {
  const res = ws.connect("ws://127.0.0.1:18489/nothing", { tags: { module: "ws" } }, () => {});
  check(res, { "status 0 with its error": (r) => r.status === 0 && r.error !== "" && r.url === "" });
  const socket = new WebSocket(WS);
  socket.onopen = () => {
    socket.send("abcdef");
    check(socket, {
      "6 bytes buffered, no extension": (s) => s.bufferedAmount === 6 && s.extensions.length === 0,
    });
    socket.close();
  };
}
