/**
 * @module
 * The built-in target's WebSocket endpoints: `/ws/echo` echoes; `/ws/room?room=NAME` broadcasts each text
 * message to the room as JSON `{room, from, self, sentAt, data}` (`self` marks the sender's copy).
 */
import type { Hono } from "hono";

/** The endpoints' cumulative counters (and the gauge of open sockets). */
interface WsCounters {
  wsOpen: number;
  wsMessagesIn: number;
  wsMessagesOut: number;
  wsRooms: number;
}

export const WS_ENDPOINTS: ReadonlyArray<readonly [string, string]> = [
  ["/ws/echo", "WebSocket: every message sent back"],
  ["/ws/room?room=NAME", 'WebSocket: every message to every member, JSON with "sentAt" and "self"'],
];

/** Adds `/ws/echo` and `/ws/room` to `app`; the counters they keep. */
export function addWsEndpoints(app: Hono): () => Partial<WsCounters> {
  const state: WsState = {
    counters: { wsOpen: 0, wsMessagesIn: 0, wsMessagesOut: 0 },
    rooms: new Map(),
    nextId: 0,
    upgrades: 0,
  };
  app.get("/ws/echo", (c) => upgrade(c.req.raw, state, echoHandlers(state)));
  app.get("/ws/room", (c) => {
    const name = c.req.query("room") || "main";
    return upgrade(c.req.raw, state, roomHandlers(state, name, state.nextId++));
  });
  // Absent until a first upgrade: an HTTP-only run's counters stay as they were.
  return () => state.upgrades === 0 ? {} : { ...state.counters, wsRooms: state.rooms.size };
}

/** What the endpoints of one app share. */
interface WsState {
  counters: Omit<WsCounters, "wsRooms">;
  rooms: Map<string, Set<WebSocket>>;
  nextId: number;
  upgrades: number;
}

interface Handlers {
  open?(socket: WebSocket): void;
  message(socket: WebSocket, data: unknown): void;
  close?(socket: WebSocket): void;
}

/** Upgrades `req` to a WebSocket whose events go to `on`, counted in `state`; 426 when it asks for none. */
function upgrade(req: Request, state: WsState, on: Handlers): Response {
  const { counters } = state;
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return new Response("expected a WebSocket upgrade\n", {
      status: 426,
      headers: { upgrade: "websocket" },
    });
  }
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.onopen = () => {
    counters.wsOpen++;
    state.upgrades++;
    on.open?.(socket);
  };
  socket.onmessage = (e) => {
    counters.wsMessagesIn++;
    on.message(socket, e.data);
  };
  socket.onclose = () => {
    counters.wsOpen--;
    on.close?.(socket);
  };
  socket.onerror = () => {};
  return response;
}

/** `/ws/echo`: every message sent back as it came. */
function echoHandlers(state: WsState): Handlers {
  return {
    message(socket, data) {
      socket.send(data as string | ArrayBuffer);
      state.counters.wsMessagesOut++;
    },
  };
}

/** `/ws/room`: sender `id` joins room `name`; each text message goes to every open member. */
function roomHandlers(state: WsState, name: string, id: number): Handlers {
  const { rooms } = state;
  return {
    open(socket) {
      let members = rooms.get(name);
      if (members === undefined) rooms.set(name, members = new Set());
      members.add(socket);
    },
    message(sender, data) {
      const sentAt = performance.timeOrigin + performance.now();
      const text = typeof data === "string" ? data : "";
      const others = JSON.stringify({ room: name, from: id, self: false, sentAt, data: text });
      const own = JSON.stringify({ room: name, from: id, self: true, sentAt, data: text });
      for (const member of rooms.get(name) ?? []) {
        if (member.readyState !== WebSocket.OPEN) continue;
        member.send(member === sender ? own : others);
        state.counters.wsMessagesOut++;
      }
    },
    close(socket) {
      const room = rooms.get(name);
      room?.delete(socket);
      if (room?.size === 0) rooms.delete(name);
    },
  };
}
