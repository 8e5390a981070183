/**
 * @module
 * The experiment files shipped inside loadlab (`loadlab run preset:NAME`, `loadlab presets`).
 */
import demo from "./demo.yaml" with { type: "text" };
import cacheBurst from "./cache-burst.yaml" with { type: "text" };
import frameworks from "./frameworks.yaml" with { type: "text" };
import delayCacheLimit from "./delay-cache-limit.yaml" with { type: "text" };
import staticConcurrency from "./static-concurrency.yaml" with { type: "text" };
import cpuSleep from "./cpu-sleep.yaml" with { type: "text" };
import chatCapacity from "./chat-capacity.yaml" with { type: "text" };
import grpcJson from "./grpc-json.yaml" with { type: "text" };

interface Preset {
  /** What follows `preset:` on the command line. */
  name: string;
  title: string;
  /** The study the preset reproduces (a page under docs/studies/), when there is one. */
  study?: string;
  /** The YAML source. */
  text: string;
}

/** Every preset, in the order `loadlab presets` lists them. */
export const PRESETS: readonly Preset[] = [
  { name: "demo", title: "The built-in target under a short load of each model", text: demo },
  {
    name: "cache-burst",
    title: "A CMS page alone and behind a Redis caching proxy under Artillery's load tests",
    study: "docs/studies/cache-burst.md",
    text: cacheBurst,
  },
  {
    name: "frameworks",
    title: "Node frameworks (Express, Fastify, Koa) and the built-in target: JIT warm-up and req/s",
    study: "docs/studies/frameworks.md",
    text: frameworks,
  },
  {
    name: "delay-cache-limit",
    title:
      "A slow /user API with and without a Redis cache and rate limiter under autocannon's 10 connections",
    study: "docs/studies/delay-cache-limit.md",
    text: delayCacheLimit,
  },
  {
    name: "static-concurrency",
    title:
      "Static pages with gzip at 10 to 1000 connections, with and without a response cache (Little's law)",
    study: "docs/studies/static-concurrency.md",
    text: staticConcurrency,
  },
  {
    name: "cpu-sleep",
    title: "Achieved vs requested rate for busy CPU and sleep per request, one instance vs N (wrk2 model)",
    study: "docs/studies/cpu-sleep.md",
    text: cpuSleep,
  },
  {
    name: "chat-capacity",
    title:
      "A WebSocket chat room on Deno and on Node from 50 to 1600 members: members held, where broadcast latency bends",
    study: "docs/studies/chat-capacity.md",
    text: chatCapacity,
  },
  {
    name: "grpc-json",
    title: "One echo handler and payload over HTTP/1.1 JSON, HTTP/2 JSON and gRPC: what gRPC buys",
    study: "docs/studies/grpc-json.md",
    text: grpcJson,
  },
];

/** The preset called `name`, or undefined. */
export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
