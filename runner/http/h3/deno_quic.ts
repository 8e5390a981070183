/**
 * @module
 * What h3 request streams take from Deno 2.9.6's internals (the h3 tests fail if they move): its core's ops
 * and `op_quic_connection_open_bi`, reached once through the in-process V8 inspector, so a request costs two
 * rids and none of the WHATWG streams whose finalization costs a third of a request.
 */
import { Session } from "node:inspector";

interface DenoCore {
  read(rid: number, into: Uint8Array): Promise<number>;
  writeAll(rid: number, bytes: Uint8Array): Promise<void>;
  tryClose(rid: number): void;
}
/** Deno's runtime core (`Deno[Deno.internal].core`, not public). */
export const { core } = (Deno as unknown as Record<symbol, { core: DenoCore }>)[
  (Deno as unknown as { internal: symbol }).internal
];

/** Opens a bidirectional stream, waiting for the server's stream credit: its send and receive rids. */
export type OpenStream = () => Promise<[number, number]>;
type OpenBi = (resource: unknown, wait: boolean) => Promise<[number, number]>;
type Remote = { name: string; value?: { objectId?: string } };

const session = new Session();
const post = <T>(method: string, params: object) =>
  new Promise<T>((resolve, reject) =>
    (session.post as (m: string, p: object, done: (err: Error | null, result: T) => void) => void)
      .call(session, method, params, (err, result) => err ? reject(err) : resolve(result))
  );
/** The remote id of `name` among a remote object's own, internal and private properties. */
async function propertyId(objectId: string | undefined, name: string): Promise<string | undefined> {
  const r = await post<Record<string, Remote[] | undefined>>(
    "Runtime.getProperties",
    { objectId, ownProperties: true },
  );
  const all = [...r.result ?? [], ...r.internalProperties ?? [], ...r.privateProperties ?? []];
  return all.find((p) => p.name === name)?.value?.objectId;
}
/** Values cross between the inspector and this code through a moment on the global object. */
const STASH = `globalThis[Symbol.for("loadlab.h3.inspected")]`;
const stash = globalThis as unknown as Record<symbol, unknown>;
const KEY = Symbol.for("loadlab.h3.inspected");

async function remote(value: unknown): Promise<string> {
  stash[KEY] = value;
  const { result } = await post<{ result: { objectId: string } }>("Runtime.evaluate", { expression: STASH });
  delete stash[KEY];
  return result.objectId;
}

async function local(objectId: string | undefined): Promise<unknown> {
  if (objectId === undefined) throw new Error("not found");
  await post("Runtime.callFunctionOn", { objectId, functionDeclaration: `function () { ${STASH} = this; }` });
  const value = stash[KEY];
  delete stash[KEY];
  return value;
}

/** The op `createBidirectionalStream` calls, by its local name in the method's first scope (its module). */
async function findOpenBi(conn: Deno.QuicConn): Promise<OpenBi> {
  const method = conn.createBidirectionalStream;
  const name = /await (\w+)\(this\.#resource,/.exec(String(method))?.[1] ?? "";
  const module = await propertyId(await propertyId(await remote(method), "[[Scopes]]"), "0");
  return await local(await propertyId(module, name)) as OpenBi;
}

let openBi: Promise<OpenBi> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** `conn`'s stream opener: bare rids, else (no inspector) the public method's halves. */
export function streamOpener(conn: Deno.QuicConn): Promise<OpenStream> {
  return bareStreamOpener(conn).catch(() => async () => {
    const { readable, writable } = await conn.createBidirectionalStream({ waitUntilAvailable: true });
    return [ridOf(writable), ridOf(readable)];
  });
}
const ridOf = (half: object) => {
  const backing = Object.getOwnPropertySymbols(half).find((s) => s.description === "[[resourceBacking]]")!;
  return (half as Record<symbol, { rid: number }>)[backing].rid;
};

/** `conn`'s bare-rid stream opener; one inspector session at a time, connected only while it looks. */
export function bareStreamOpener(conn: Deno.QuicConn): Promise<OpenStream> {
  const opener = queue.then(async (): Promise<OpenStream> => {
    session.connect();
    try {
      const op = await (openBi ??= findOpenBi(conn));
      const resource = await local(await propertyId(await remote(conn), "#resource"));
      return () => op(resource, true);
    } catch (err) {
      const where = `Deno ${Deno.version.deno}'s QUIC internals are not where Deno 2.9.6 keeps them`;
      throw new Error(`${where} (${err}): run loadlab with its pinned Deno (tools/deno)`);
    } finally {
      session.disconnect();
    }
  });
  queue = opener.catch(() => {});
  return opener;
}
