// The demo's provision server over Streamable HTTP, on whatever runtime runs
// this file: Deno.serve under Deno, Bun.serve under Bun, node:http under
// Node. Each hands the same web-standard handler its requests. Prints one
// line, `listening <url> (<runtime>)`, then serves until it is killed.
//
//   deno run --allow-net --allow-env --allow-read dist/examples/demo/serve-http.js [port]
//   bun dist/examples/demo/serve-http.js [port]
//   node dist/examples/demo/serve-http.js [port]
import { createHttpHandler } from "mcp-roundtrip/server";
import { serveHttp } from "mcp-roundtrip/node";
import { createProvisionServer } from "./provision-server.js";

/** The slice of `Deno.serve` this file uses. */
interface DenoLike {
  serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: (request: Request) => Promise<Response>): unknown;
}

/** The slice of `Bun.serve` this file uses. */
interface BunLike {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number };
}

const runtimes = globalThis as { Deno?: DenoLike; Bun?: BunLike };
const hostname = "127.0.0.1";
const port = Number(process.argv[2] ?? 0);
const server = createProvisionServer({
  warn: (message) => console.error(`server warning: ${message}`),
  error: (message) => console.error(`server error: ${message}`),
});

function announce(boundPort: number, runtime: string): void {
  console.log(`listening http://${hostname}:${boundPort}/mcp (${runtime})`);
}

if (runtimes.Deno !== undefined) {
  const handler = createHttpHandler(server);
  runtimes.Deno.serve({ hostname, port, onListen: (address) => announce(address.port, "Deno.serve") }, handler);
} else if (runtimes.Bun !== undefined) {
  const handler = createHttpHandler(server);
  const bound = runtimes.Bun.serve({ hostname, port, fetch: handler });
  announce(bound.port, "Bun.serve");
} else {
  const handle = await serveHttp(server, { host: hostname, port });
  announce(handle.port, "node:http");
}
