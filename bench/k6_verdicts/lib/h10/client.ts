import http from "k6/http";

export enum Env {
  Local = "http://127.0.0.1:18481",
  Target = "http://127.0.0.1:18482",
}

export interface Echo<T> {
  args: Record<string, string>;
  json: T | null;
}

export const paths = { echo: "/post", get: "/get" } as const;

export function postJson<T>(body: T): Echo<T> {
  const r = http.post(`${Env.Local}${paths.echo}`, JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });
  return r.json() as unknown as Echo<T>;
}
