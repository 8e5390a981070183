/**
 * @module
 * What the example apps share that is not framework code: naive Fibonacci (the CPU scenario), the
 * division that fails on purpose (the error scenario), the port and the optional Redis client. Each app
 * keeps routing, validation and error handling in its framework's own idiom, since that is what the
 * frameworks study compares.
 */
import process from "node:process";
import { createClient } from "redis";

/** Naive recursive Fibonacci (the frameworks study measures fib(23)). */
export function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/** 100 / (n - 1); throws for n = 1 like an integer division by zero in other languages. */
export function divideBy(n) {
  const divisor = n - 1;
  if (divisor === 0) throw new Error("division by zero");
  return 100 / divisor;
}

export const PORT = Number(process.env.PORT ?? 3000);
export const HOST = process.env.HOST ?? "127.0.0.1";

/** A connected Redis client when REDIS_URL is set, else null (then /redis/:key answers 503). */
export async function connectRedis() {
  const url = process.env.REDIS_URL;
  if (!url) return null;
  const client = createClient({ url });
  client.on("error", () => {}); // reconnects on its own; an unhandled 'error' event would kill the app
  await client.connect();
  return client;
}

/** Closes the server and Redis on SIGTERM/SIGINT so loadlab's stop is quick and clean. */
export function stopOnSignal(close) {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
