/**
 * The everything-server's tools in a Fastify 5 app: Fastify parses the
 * JSON body, the route hands the raw request and response to
 * `toNodeHandler` with that parsed body, after `reply.hijack()` tells
 * Fastify the answer is written elsewhere.
 */
import Fastify from "fastify";
import { toNodeHandler } from "mcp-roundtrip/node";
import { createEverythingServer } from "../everything-server/server.js";
import type { RunningExample } from "../express/app.js";

/** Starts the Fastify example on `host:port` (port 0 picks a free one). */
export async function startFastifyExample(options: { host?: string; port?: number } = {}): Promise<RunningExample> {
  const host = options.host ?? "127.0.0.1";
  const mcp = toNodeHandler(createEverythingServer(), {
    allowedHosts: ["127.0.0.1", "localhost"],
    onError: (error) => console.error("[fastify example]", error),
  });
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 });
  app.route({
    method: ["GET", "POST", "DELETE", "OPTIONS"],
    url: "/mcp",
    handler: async (request, reply) => {
      reply.hijack();
      await mcp(request.raw, reply.raw, request.body);
    },
  });
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    url: `http://${host}:${String(port)}/mcp`,
    close: async () => {
      mcp.close();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
