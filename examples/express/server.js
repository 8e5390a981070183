/**
 * @module
 * The frameworks study's five scenarios on Express: static JSON, fib, Redis GET, an error thrown in a handler (500
 * from an error middleware), and query validation (400). `PORT`, `HOST`, `REDIS_URL` from the environment.
 */
import express from "express";
import { connectRedis, divideBy, fib, HOST, PORT, stopOnSignal } from "../shared.js";

const redis = await connectRedis();
const app = express();
app.disable("x-powered-by");

app.get("/json", (_req, res) => res.json({ message: "Hello, World!" }));
app.get("/fib/:n", (req, res) => {
  const n = Number(req.params.n);
  if (!Number.isInteger(n) || n < 0 || n > 40) {
    return res.status(400).json({ error: "n must be 0..40" });
  }
  res.json({ n, fib: fib(n) });
});
app.get("/redis/:key", async (req, res) => {
  if (!redis) {
    return res.status(503).json({
      error: "no Redis configured: set REDIS_URL",
    });
  }
  const value = await redis.get(req.params.key);
  if (value === null) return res.status(404).json({ error: "no such key" });
  res.json({ key: req.params.key, value });
});
app.get(
  "/error/:n",
  (req, res) => res.json({ result: divideBy(Number(req.params.n)) }),
);
app.get("/validate", (req, res) => {
  const { id, name } = req.query;
  const issues = [];
  if (typeof id !== "string" || !/^-?\d+$/.test(id)) {
    issues.push("id must be an integer");
  }
  if (typeof name !== "string" || name.length < 5) {
    issues.push("name must have at least 5 characters");
  }
  if (issues.length) {
    return res.status(400).json({ error: "validation failed", issues });
  }
  res.json({ ok: true, id: Number(id), name });
});
// Express's default handler would print every stack trace; the study measures error handling, not logging.
app.use((err, _req, res, _next) => res.status(500).json({ error: err.message }));

const server = app.listen(PORT, HOST);
stopOnSignal(async () => {
  server.close();
  await redis?.disconnect();
});
