// README "Transports": the README server on stdin/stdout. A client starts it with
// Client.connect({ command: process.execPath, args: ["dist/examples/readme/stdio-server.js"] }).
import { serveStdio } from "mcp-roundtrip/node";
import { createServer } from "./server.js";

serveStdio(createServer());
