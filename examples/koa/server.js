/**
 * @module
 * The frameworks study's five scenarios on Koa with @koa/router: static JSON, fib, Redis GET, an error thrown in a
 * handler (500 from an error-catching middleware), and query validation (400). `PORT`, `HOST`,
 * `REDIS_URL` from the environment.
 */
import Koa from "koa";
import Router from "@koa/router";
import { connectRedis, divideBy, fib, HOST, PORT, stopOnSignal } from "../shared.js";

const redis = await connectRedis();
const app = new Koa();
const router = new Router();

router.get("/json", (ctx) => {
  ctx.body = { message: "Hello, World!" };
});
router.get("/fib/:n", (ctx) => {
  const n = Number(ctx.params.n);
  if (!Number.isInteger(n) || n < 0 || n > 40) {
    ctx.throw(400, "n must be 0..40");
  }
  ctx.body = { n, fib: fib(n) };
});
router.get("/redis/:key", async (ctx) => {
  if (!redis) ctx.throw(503, "no Redis configured: set REDIS_URL");
  const value = await redis.get(ctx.params.key);
  if (value === null) ctx.throw(404, "no such key");
  ctx.body = { key: ctx.params.key, value };
});
router.get("/error/:n", (ctx) => {
  ctx.body = { result: divideBy(Number(ctx.params.n)) };
});
router.get("/validate", (ctx) => {
  const { id, name } = ctx.query;
  const issues = [];
  if (typeof id !== "string" || !/^-?\d+$/.test(id)) {
    issues.push("id must be an integer");
  }
  if (typeof name !== "string" || name.length < 5) {
    issues.push("name must have at least 5 characters");
  }
  if (issues.length) {
    ctx.status = 400;
    ctx.body = { error: "validation failed", issues };
    return;
  }
  ctx.body = { ok: true, id: Number(id), name };
});

// Caught here, errors never reach Koa's default 'error' event, which prints each one to stderr.
app.use(async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    ctx.status = err.status ?? 500;
    ctx.body = { error: err.message };
  }
});
app.use(router.routes());
app.use(router.allowedMethods());

const server = app.listen(PORT, HOST);
stopOnSignal(async () => {
  server.close();
  await redis?.disconnect();
});
