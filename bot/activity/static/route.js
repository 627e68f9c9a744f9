// Shard clusters: every process of the bot serves this page at the root and under its own path prefix (`/c1`),
// which the operator's front routes to it. A socket that reached a process not running its server is told the
// prefix of the one that does (`bye` with `route`, close code 4421); the connection goes there with the same
// sign-in. The prefixes hang from the page's root: its address without the prefix it was itself served under.

import { socketUrl } from "./socket.js";

const PREFIX = /^(\/[A-Za-z0-9_-]+)+$/;

/** The root the prefixes hang from: the folder of `base` without `served` (the prefix the page came under). */
export function pageRoot(base, served) {
  const root = new URL(".", base);
  if (served && PREFIX.test(served) && root.pathname.endsWith(`${served}/`)) {
    root.pathname = root.pathname.slice(0, root.pathname.length - served.length);
  }
  root.search = "";
  root.hash = "";
  return root.toString();
}

/** The socket URL behind `route` from `root` (`/c1` is `<root>c1/ws`); null if `route` is not a path prefix. */
export function routedSocketUrl(root, route) {
  if (typeof route !== "string" || !PREFIX.test(route)) return null;
  return socketUrl(new URL(`.${route}/`, root));
}

/** How this document resolves a route (for its `Connection`): from the root under which it was served. */
export function routerOf(doc) {
  const meta = doc.querySelector('meta[name="activity-route"]');
  const root = pageRoot(doc.baseURI, meta ? meta.content : "");
  return (route) => routedSocketUrl(root, route);
}
