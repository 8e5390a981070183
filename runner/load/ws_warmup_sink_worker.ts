/**
 * @module
 * Entry module of the WebSocket warm-up sink's isolate (warmup_sink.ts): a loopback echo on
 * `Deno.upgradeWebSocket` that posts its port once listening. It runs on a thread of its own because a
 * WebSocket run's epoll and io_uring pumps block their thread between completions: a sink on the
 * generator's own event loop would never be answered, and the burst would warm nothing.
 */
/// <reference lib="deno.worker" />

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const { socket, response } = Deno.upgradeWebSocket(request);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => socket.send(event.data);
  return response;
});
self.postMessage({ port: server.addr.port });
