/**
 * @module
 * Whether the io_uring transport can work here, asked once per isolate by the transport's choice
 * (transport/choice.ts) and by tests that skip without it: the answer is the error of making one small
 * ring (transport/uring_ring.ts), so it names the kernel's own reason.
 */
import { UringRing } from "./ring.ts";

let probed: string | null | undefined = undefined;

/**
 * Why an io_uring ring with what the transport needs (SINGLE_ISSUER|DEFER_TASKRUN, a provided-buffer
 * ring: Linux 6.1 or newer, which also has multishot receive) cannot be made here, or null. Made and
 * closed once per isolate: EPERM/ENOSYS (seccomp, `kernel.io_uring_disabled`), EINVAL (an older kernel).
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
