/**
 * The everything-server's tools in an Express 5 app: `toNodeHandler`
 * mounted on `/mcp` after `express.json()`, which parses the body first
 * (the handler takes `req.body` as it is). Every method goes to it: POST,
 * GET and DELETE for 2025 sessions, and CORS preflights.
 */
import type { Server } from "node:http";
import express from "express";
import { toNodeHandler } from "mcp-roundtrip/node";
import { createEverythingServer } from "../everything-server/server.js";

/** A running example: the MCP endpoint's URL, and how to stop it. */
export interface RunningExample {
  url: string;
  close(): Promise<void>;
}

/** Starts the Express example on `host:port` (port 0 picks a free one). */
export async function startExpressExample(options: { host?: string; port?: number } = {}): Promise<RunningExample> {
  const host = options.host ?? "127.0.0.1";
  const mcp = toNodeHandler(createEverythingServer(), {
    // Behind a loopback bind, answer only to loopback names (DNS rebinding).
    allowedHosts: ["127.0.0.1", "localhost"],
    onError: (error) => console.error("[express example]", error),
  });
  const app = express();
  app.use(express.json({ limit: "4mb" }));
  app.all("/mcp", mcp);
  app.get("/", (_request, response) => {
    response.type("text").send("MCP endpoint: /mcp\n");
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? 0, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    url: `http://${host}:${String(port)}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        mcp.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
