// An MCP server as a module worker (`export default { fetch }`), for
// workerd / Cloudflare Workers and any runtime with that shape. It imports
// only node-free entries (mcp-roundtrip/server, mcp-roundtrip/http/web), so
// it bundles with no `node:` import and runs without nodejs_compat. The
// server itself is in flight-desk.ts; its sealing key ring comes from the
// MCP_REQUEST_STATE_KEYS binding (`npx mcp-roundtrip keygen` makes a key;
// every instance of the worker shares it).
import { createHttpHandler } from "mcp-roundtrip/http/web";
import { createFlightDesk, type WorkerEnv } from "./flight-desk.js";

let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  /** Answers one request; the server is built on the first, once the bindings are known. */
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    handler ??= createHttpHandler(createFlightDesk(env));
    return handler(request);
  },
};
