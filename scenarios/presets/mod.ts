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
import protocols from "./protocols.yaml" with { type: "text" };

interface Preset {
  /** What follows `preset:` on the command line: the file's own `name:`. */
  name: string;
  /** The YAML source (its `study:` names the page under docs/studies/ it reproduces). */
  text: string;
}

/** Every preset, in the order `loadlab presets` lists them. */
export const PRESETS: readonly Preset[] = [
  { name: "demo", text: demo },
  { name: "cache-burst", text: cacheBurst },
  { name: "frameworks", text: frameworks },
  { name: "delay-cache-limit", text: delayCacheLimit },
  { name: "static-concurrency", text: staticConcurrency },
  { name: "cpu-sleep", text: cpuSleep },
  { name: "chat-capacity", text: chatCapacity },
  { name: "grpc-json", text: grpcJson },
  { name: "protocols", text: protocols },
];

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
