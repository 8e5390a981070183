/**
 * @module
 * One writer per output folder: an flock on `DIR/.loadlab.lock` holding the holder's pid, so a second
 * process refuses at once naming the first; the kernel drops the lock however its process dies.
 */
import { sleepUnlessAborted } from "./sleep.ts";
import { readTextAt } from "./read_capped.ts";

interface LockHolder {
  pid: number;
  startedAt: string;
  command: string;
}

/** A held folder lock; disposing it (`await using`) removes the file and drops the lock. */
export interface FolderLock extends AsyncDisposable {
  /** The holder of a lock file left behind by a process that is gone, which this lock replaced. */
  tookOverFrom: LockHolder | null;
}

/** The folder is locked by a running process; `holder` is null when it had not yet written its pid. */
export class FolderInUseError extends Error {
  override name = "FolderInUseError";
  constructor(readonly dir: string, readonly holder: LockHolder | null) {
    super(`${dir}: in use by ${holder ? holderText(holder) : "another process (its pid not yet written)"}`);
  }
}

const LOCK_FILE_NAME = ".loadlab.lock";

export function holderText(holder: LockHolder): string {
  return `another ${holder.command} (pid ${holder.pid}, since ${holder.startedAt})`;
}

/** A holder wrote its pid right after locking: a reader that raced it waits this long at most. */
const HOLDER_WRITE_WAIT_MS = 1000;
const MAX_LOCK_FILE_BYTES = 4096;

/** Locks `dir` for `command`, or only its file `of` (`.NAME.loadlab.lock`); held: `FolderInUseError`. */
export async function lockFolder(dir: string, command: string, of?: string): Promise<FolderLock> {
  const path = of?.replace(/[^/]*$/, (name) => `.${name}${LOCK_FILE_NAME}`) ?? `${dir}/${LOCK_FILE_NAME}`;
  // A retry follows a release that removed the file between this open and lock.
  for (let attempt = 0; attempt < 10; attempt++) {
    const file = await Deno.open(path, { read: true, write: true, create: true });
    if (!(await file.tryLock(true))) {
      const holder = await readHolder(file, HOLDER_WRITE_WAIT_MS);
      file.close();
      throw new FolderInUseError(of ?? dir, holder);
    }
    // A file its holder removed on release guards nothing.
    if (!(await namesFile(path, file))) {
      file.close();
      continue;
    }
    const tookOverFrom = await readHolder(file, 0);
    const mine: LockHolder = { pid: Deno.pid, startedAt: new Date().toISOString(), command };
    await file.truncate(0);
    await file.seek(0, Deno.SeekMode.Start);
    await file.write(new TextEncoder().encode(`${JSON.stringify(mine)}\n`));
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await Deno.remove(path).catch(() => {});
      file.close();
    };
    return { tookOverFrom, [Symbol.asyncDispose]: release };
  }
  throw new FolderInUseError(of ?? dir, null);
}

async function namesFile(path: string, file: Deno.FsFile): Promise<boolean> {
  const [there, open] = await Promise.all([Deno.stat(path).catch(() => null), file.stat()]);
  if (!there) return false;
  if (there.ino === null || open.ino === null) return true;
  return there.ino === open.ino && there.dev === open.dev;
}

async function readHolder(file: Deno.FsFile, waitMs: number): Promise<LockHolder | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = parseHolder(readTextAt(file, 0, MAX_LOCK_FILE_BYTES));
    if (holder || Date.now() >= deadline) return holder;
    await sleepUnlessAborted(50);
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text);
    return Number.isInteger(v?.pid) && typeof v.startedAt === "string" && typeof v.command === "string"
      ? { pid: v.pid, startedAt: v.startedAt, command: v.command }
      : null;
  } catch {
    return null;
  }
}
