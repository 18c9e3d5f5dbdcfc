// Our protocol layer behind the floor's HTTP layer: the bare node:http server
// of echo.mjs, handing each body to our McpServer (`handle`: classification,
// the request path, both schemas, the result's shape) instead of answering it
// itself. Set beside the floor and `serveHttp`, it splits ours's cost above the
// floor into the protocol layer and our HTTP layer (bench/layers.mjs).
import { createServer } from "node:http";
import { closeServer, listen, onJsonBody } from "../lib/listen.mjs";
import { benchServer } from "./ours.mjs";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The bench server's tools behind a bare node:http JSON endpoint (no header rules, no session, no streams). */
export async function protocolOnlyServer() {
  const mcp = benchServer();
  const server = createServer((req, res) => {
    // As our HTTP layer decodes: strict UTF-8, then JSON.
    onJsonBody(
      req,
      res,
      (message) => {
        mcp.handle(message, { protocolVersionHeader: req.headers["mcp-protocol-version"] }).then((response) => {
          const body = JSON.stringify(response);
          res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
        });
      },
      (bytes) => strictUtf8.decode(bytes),
    );
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}
