/**
 * @module
 * The frameworks study's five scenarios on Fastify: static JSON, fib, Redis GET, an error thrown in a handler (500
 * from the error handler), and query validation with Fastify's own JSON-schema validation (ajv), as in
 * the study. `PORT`, `HOST`, `REDIS_URL` from the environment.
 */
import Fastify from "fastify";
import { connectRedis, divideBy, fib, HOST, PORT, stopOnSignal } from "../shared.js";

const redis = await connectRedis();
const app = Fastify({ logger: false });

app.get("/json", () => ({ message: "Hello, World!" }));
app.get("/fib/:n", {
  schema: {
    params: {
      type: "object",
      properties: { n: { type: "integer", minimum: 0, maximum: 40 } },
    },
  },
}, (req) => ({ n: req.params.n, fib: fib(req.params.n) }));
app.get("/redis/:key", async (req, reply) => {
  if (!redis) {
    return reply.code(503).send({
      error: "no Redis configured: set REDIS_URL",
    });
  }
  const value = await redis.get(req.params.key);
  if (value === null) return reply.code(404).send({ error: "no such key" });
  return { key: req.params.key, value };
});
app.get("/error/:n", (req) => ({ result: divideBy(Number(req.params.n)) }));
app.get("/validate", {
  schema: {
    querystring: {
      type: "object",
      required: ["id", "name"],
      properties: {
        id: { type: "integer" },
        name: { type: "string", minLength: 5 },
      },
    },
  },
}, (req) => ({ ok: true, id: req.query.id, name: req.query.name }));
app.setErrorHandler((err, _req, reply) => {
  const status = err.validation ? 400 : (err.statusCode ?? 500);
  reply.code(status >= 400 ? status : 500).send({ error: err.message });
});

await app.listen({ port: PORT, host: HOST });
stopOnSignal(async () => {
  await app.close();
  await redis?.disconnect();
});
