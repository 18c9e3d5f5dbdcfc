/**
 * Runs the everything server.
 *
 *   node dist/examples/everything-server/main.js [--port 3000] [--host 127.0.0.1]
 *   node dist/examples/everything-server/main.js --stdio
 *   node dist/examples/everything-server/main.js --help
 *
 * Over HTTP it prints `MCP endpoint: <url>` on stderr once listening.
 * `--help` (or `-h`) prints the usage on stdout and exits 0 without starting a server.
 */
import { serveHttp, serveStdio } from "mcp-roundtrip/node";
import { createEverythingServer } from "./server.js";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const USAGE = `Usage: node dist/examples/everything-server/main.js [options]

Runs the everything server, which answers every MCP feature (for conformance tests).

Options:
  --port <n>     the HTTP port (default: $PORT, else 3000; 0 picks a free one)
  --host <name>  the HTTP host (default: 127.0.0.1)
  --stdio        serve over stdin/stdout instead of HTTP
  -h, --help     print this and exit

Over HTTP it prints "MCP endpoint: <url>" on stderr once listening; stop it with Ctrl+C.
`;

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(USAGE);
  process.exit(0);
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
