/**
 * Runs the everything server.
 *
 *   node dist/examples/everything-server/main.js [--port 3000] [--host 127.0.0.1]
 *   node dist/examples/everything-server/main.js --stdio
 *
 * Over HTTP it prints `MCP endpoint: <url>` on stderr once listening.
 */
import { serveHttp, serveStdio } from "mcp-roundtrip/node";
import { createEverythingServer } from "./server.js";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const server = createEverythingServer();

if (process.argv.includes("--stdio")) {
  const stdio = serveStdio(server);
  await stdio.closed;
  process.exit(0);
} else {
  const port = Number(option("port") ?? process.env.PORT ?? 3000);
  const host = option("host") ?? "127.0.0.1";
  const http = await serveHttp(server, { host, port, onError: (error) => console.error("[everything-server]", error) });
  console.error(`MCP endpoint: ${http.url}`);
  const stop = () => {
    void http.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
