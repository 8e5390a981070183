/*
 * A small, fast WebSocket echo server for the WebSocket bench (bench/ws.ts): one thread, epoll,
 * level-triggered, each connection's frames echoed back as they come (text, binary and continuation
 * frames with their opcode; ping answered by pong; close answered and the socket closed). Frames are
 * batched: every whole frame in a read is answered with one write. No extension, no UTF-8 check: it is
 * a target for measuring generators, not a conformance reference.
 *
 *   gcc -O2 -o ws_echo_server bench/ws_echo_server.c && ./ws_echo_server 8090
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fcntl.h>

#define BUF 65536

typedef struct { int fd; int open; size_t in; unsigned char inb[BUF]; unsigned char out[BUF + 16]; } conn_t;

static uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void sha1(const unsigned char *msg, size_t len, unsigned char out[20]) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  unsigned char block[128];
  size_t full = len / 64 * 64, rest = len - full, total = rest + 9 <= 64 ? 64 : 128;
  memset(block, 0, sizeof block);
  memcpy(block, msg + full, rest);
  block[rest] = 0x80;
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++) block[total - 1 - i] = (unsigned char)(bits >> (8 * i));
  for (size_t off = 0; off < full + total; off += 64) {
    const unsigned char *p = off < full ? msg + off : block + (off - full);
    uint32_t w[80];
    for (int i = 0; i < 16; i++) w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
      uint32_t f, k;
      if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
      else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
      else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
      else { f = b ^ c ^ d; k = 0xCA62C1D6; }
      uint32_t t = rol(a, 5) + f + e + k + w[i];
      e = d; d = c; c = rol(b, 30); b = a; a = t;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
  }
  for (int i = 0; i < 20; i++) out[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void base64(const unsigned char *in, int len, char *out) {
  static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  int o = 0;
  for (int i = 0; i < len; i += 3) {
    uint32_t v = in[i] << 16 | (i + 1 < len ? in[i + 1] << 8 : 0) | (i + 2 < len ? in[i + 2] : 0);
    out[o++] = t[v >> 18 & 63];
    out[o++] = t[v >> 12 & 63];
    out[o++] = i + 1 < len ? t[v >> 6 & 63] : '=';
    out[o++] = i + 2 < len ? t[v & 63] : '=';
  }
  out[o] = 0;
}

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EAGAIN || errno == EINTR) continue; return -1; }
    p += w; n -= (size_t)w;
  }
  return 0;
}

/* The handshake: 0 when more bytes are needed, -1 to close, else bytes consumed. */
static long handshake(conn_t *c) {
  c->inb[c->in] = 0;
  char *end = strstr((char *)c->inb, "\r\n\r\n");
  if (!end) return c->in >= BUF - 1 ? -1 : 0;
  char *key = strcasestr((char *)c->inb, "Sec-WebSocket-Key:");
  if (!key) return -1;
  key += 18;
  while (*key == ' ') key++;
  char src[128];
  int k = 0;
  while (key[k] && key[k] != '\r' && k < 60) { src[k] = key[k]; k++; }
  memcpy(src + k, "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", 36);
  unsigned char digest[20];
  sha1((unsigned char *)src, (size_t)k + 36, digest);
  char accept[32], head[256];
  base64(digest, 20, accept);
  int n = snprintf(head, sizeof head, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
  if (write_all(c->fd, (unsigned char *)head, (size_t)n) < 0) return -1;
  c->open = 1;
  return end + 4 - (char *)c->inb;
}

/* Echoes every whole frame in c->inb; -1 to close, else bytes consumed. */
static long frames(conn_t *c) {
  size_t at = 0, out = 0;
  while (c->in - at >= 2) {
    unsigned char *p = c->inb + at;
    int opcode = p[0] & 15;
    uint64_t len = p[1] & 127;
    size_t hdr = 2;
    if (len == 126) { if (c->in - at < 4) break; len = (uint64_t)p[2] << 8 | p[3]; hdr = 4; }
    else if (len == 127) { if (c->in - at < 10) break; len = 0; for (int i = 2; i < 10; i++) len = len << 8 | p[i]; hdr = 10; }
    if (!(p[1] & 128) || len > BUF - 32) return -1;
    if (c->in - at < hdr + 4 + len) break;
    unsigned char *mask = p + hdr, *payload = p + hdr + 4;
    if (out + len + 10 > sizeof c->out) { if (write_all(c->fd, c->out, out) < 0) return -1; out = 0; }
    unsigned char *o = c->out + out;
    o[0] = (unsigned char)((p[0] & 0x80) | (opcode == 9 ? 10 : opcode));
    size_t oh = 2;
    if (len < 126) o[1] = (unsigned char)len;
    else if (len < 65536) { o[1] = 126; o[2] = (unsigned char)(len >> 8); o[3] = (unsigned char)len; oh = 4; }
    else { o[1] = 127; for (int i = 0; i < 8; i++) o[2 + i] = (unsigned char)(len >> (56 - 8 * i)); oh = 10; }
    for (uint64_t i = 0; i < len; i++) o[oh + i] = payload[i] ^ mask[i & 3];
    if (opcode != 10) out += oh + len; /* a pong from the client is not echoed */
    at += hdr + 4 + len;
    if (opcode == 8) { write_all(c->fd, c->out, out); return -1; }
  }
  if (out > 0 && write_all(c->fd, c->out, out) < 0) return -1;
  return (long)at;
}

int main(int argc, char **argv) {
  int port = argc > 1 ? atoi(argv[1]) : 8090;
  int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(ls, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(ls, 4096) < 0) { perror("listen"); return 1; }
  fcntl(ls, F_SETFL, O_NONBLOCK);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL}, evs[256];
  epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
  printf("listening on %d\n", port);
  fflush(stdout);
  for (;;) {
    int n = epoll_wait(ep, evs, 256, -1);
    for (int i = 0; i < n; i++) {
      conn_t *c = evs[i].data.ptr;
      if (c == NULL) {
        int fd;
        while ((fd = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          conn_t *nc = calloc(1, sizeof *nc);
          nc->fd = fd;
          struct epoll_event cev = {.events = EPOLLIN, .data.ptr = nc};
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
        }
        continue;
      }
      ssize_t r = read(c->fd, c->inb + c->in, BUF - 1 - c->in);
      if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      long used = 0;
      if (r > 0) {
        c->in += (size_t)r;
        used = c->open ? frames(c) : handshake(c);
        if (used > 0) { memmove(c->inb, c->inb + used, c->in - (size_t)used); c->in -= (size_t)used; }
        if (used >= 0 && c->open && c->in > 0) {
          long more = frames(c);
          if (more > 0) { memmove(c->inb, c->inb + more, c->in - (size_t)more); c->in -= (size_t)more; }
          if (more < 0) used = -1;
        }
      }
      if (r <= 0 || used < 0) { close(c->fd); free(c); }
    }
  }
}
