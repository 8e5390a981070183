// A branch on a response and a loop over what a page links to: fetch a page, then every asset it names,
// checking images by their content type. Runnable as is: loadlab run examples/scripts/gallery_loop.ts
import type { Session } from "../../runner/script/session.ts";

export const options = {
  targets: { app: { kind: "builtin" } },
  loads: { arrivals: { model: "rate", phases: [{ duration: "10s", rate: 50 }] } },
};

const LINK = /(?:src|href)="(\/static\/[^"]+)"/g;

export default async (s: Session) => {
  const page = await s.get("/static/gallery.html", { name: "page" });
  if (!page.headers.get("content-type")?.startsWith("text/html")) {
    s.check(false, "page is HTML");
    return;
  }
  const assets = [...page.text().matchAll(LINK)].map((m) => m[1]);
  s.check(assets.length > 0, "page links assets");
  for (const path of assets) {
    const asset = await s.get(path, { name: path.endsWith(".html") ? "linked page" : "asset" });
    if (path.includes("/images/")) {
      s.check(asset.headers.get("content-type")?.startsWith("image/") === true, "image type");
      s.check(asset.bytes().length > 0, "image has bytes");
    }
  }
};
