/**
 * @module
 * The WebSocket warm-up sink's isolate: a loopback echo posting its port, on a thread ws pumps cannot block.
 */
/// <reference lib="deno.worker" />

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const { socket, response } = Deno.upgradeWebSocket(request);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => socket.send(event.data);
  return response;
});
self.postMessage({ port: server.addr.port });
