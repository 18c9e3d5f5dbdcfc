// The floor of the HTTP cold start: a bare `node:http` JSON-RPC echo (the
// same server as ../echo.mjs), started the same way as http-ours.mjs.
import { createServer } from "node:http";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      result: { resultType: "complete", content: [{ type: "text", text: message.params.arguments.text }] },
    });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
server.on("connection", (socket) => process.once("SIGTERM", () => socket.destroy()));
