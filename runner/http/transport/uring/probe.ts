/**
 * @module
 * Whether the io_uring transport can work here: the error of making one small ring, the kernel's reason.
 */
import { UringRing } from "./ring.ts";

let probed: string | null | undefined = undefined;

/**
 * Why a ring with what the transport needs (Linux 6.1+) cannot be made here, or null; asked once per
 * isolate. EPERM/ENOSYS: seccomp or `kernel.io_uring_disabled`; EINVAL: an older kernel.
 */
export function uringUnavailableReason(): string | null {
  if (probed !== undefined) return probed;
  if (Deno.build.os !== "linux") return probed = `not Linux (${Deno.build.os})`;
  if (Deno.build.arch !== "x86_64" && Deno.build.arch !== "aarch64") {
    return probed = `unsupported arch ${Deno.build.arch}`;
  }
  try {
    new UringRing(8, 8).close();
    probed = null;
  } catch (err) {
    probed = err instanceof Error ? err.message : String(err);
  }
  return probed;
}
