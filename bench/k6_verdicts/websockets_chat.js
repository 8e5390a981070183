// args: -u 2 -i 6
// k6/websockets: an echo chat whose timer closes the socket after five echoes, global timers, a ping.
import { WebSocket } from "k6/websockets";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/chat";

export const options = {
  thresholds: {
    ws_msgs_received: ["count>=30"],
    // Five messages, a ping and a close each: k6 counts every frame it writes.
    "ws_msgs_sent{room:red}": ["count>=42"],
    ws_sessions: ["count==6"],
    ws_ping: ["p(95)<2000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const socket = new WebSocket(WS, null, { tags: { room: "red" } });
  let echoes = 0;
  socket.addEventListener("open", () => {
    socket.ping();
    const timer = setInterval(() => {
      if (echoes >= 5) {
        clearInterval(timer);
        socket.close();
      } else if (socket.readyState === 1) socket.send(`message ${echoes}`);
    }, 20);
  });
  socket.addEventListener("message", () => echoes++);
  socket.onclose = () => check(echoes, { "five echoes before the close": (n) => n === 5 });
}
