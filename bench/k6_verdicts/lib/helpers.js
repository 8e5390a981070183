import http from "k6/http";

export const API = "/get";

export default function client(base) {
  return {
    get: (q) => http.get(`${base}${API}?q=${q}`, { tags: { name: "search" } }),
  };
}

export function pick(list, n) {
  return list[n % list.length];
}
