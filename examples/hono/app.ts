/**
 * The everything-server's tools in a Hono 4 app, through the web-standard
 * handler: the route passes Hono's `Request` to `createHttpHandler` and
 * returns its `Response`. The same `app` runs on Workers, Deno or Bun;
 * here `@hono/node-server` serves it on Node.
 */
import { once } from "node:events";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createHttpHandler } from "mcp-roundtrip/server";
import { createEverythingServer } from "../everything-server/server.js";
import type { RunningExample } from "../express/app.js";

/** The Hono app with the MCP endpoint on `/mcp`, and the handler (to close its 2025 sessions). */
export function createHonoApp() {
  const mcp = createHttpHandler(createEverythingServer(), {
    allowedHosts: ["127.0.0.1", "localhost"],
    onError: (error) => console.error("[hono example]", error),
  });
  const app = new Hono();
  app.all("/mcp", (context) => mcp(context.req.raw));
  return { app, mcp };
}

/** Starts the Hono example on Node at `host:port` (port 0 picks a free one). */
export async function startHonoExample(options: { host?: string; port?: number } = {}): Promise<RunningExample> {
  const host = options.host ?? "127.0.0.1";
  const { app, mcp } = createHonoApp();
  const server = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 });
  if (!server.listening) await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    url: `http://${host}:${String(port)}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        mcp.close();
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
