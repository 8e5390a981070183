// args: -i 1
// k6/experimental/redis, which k6 v1 no longer has.
import redis from "k6/experimental/redis";

const client = new redis.Client("redis://127.0.0.1:6379");

export default async function () {
  await client.set("k", "v", 0);
}
