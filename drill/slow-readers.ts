// Slow readers: clients that open a stream through nginx and then stop
// reading it. Half hold a `subscriptions/listen` stream while the tool list
// changes 50 times a second; half call `flood`, whose 4 MiB of notifications
// overflow the socket buffers and pile up in the instance, which must cut
// the stream at `maxStreamBufferBytes` (64 KiB in the drill) instead of
// holding more, and keep serving everyone else.
import { connect, type Socket } from "node:net";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "drill-slow-reader", version: "1.0.0" },
};

function request(port: number, method: string, body: object, name?: string): string {
  const text = JSON.stringify(body);
  return [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    "MCP-Protocol-Version: 2026-07-28",
    `Mcp-Method: ${method}`,
    ...(name === undefined ? [] : [`Mcp-Name: ${name}`]),
    `Content-Length: ${Buffer.byteLength(text)}`,
    "",
    text,
  ].join("\r\n");
}

/** Slow readers at work; `close()` drops their connections and stops the churn. */
export interface SlowReaders {
  close(): Promise<void>;
}

/** Opens `count` streams through nginx at `base` that are never read (listen streams and floods), and changes the tool list 50 times a second. */
export async function startSlowReaders(base: string, count: number): Promise<SlowReaders> {
  const port = Number(new URL(base).port);
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.on("error", () => {});
    socket.write(
      request(port, "subscriptions/listen", {
        jsonrpc: "2.0",
        id: i,
        method: "subscriptions/listen",
        params: { _meta: META, notifications: { toolsListChanged: true } },
      }),
    );
    // Read the first bytes (the acknowledgement), then never again.
    socket.once("data", () => socket.pause());
    sockets.push(socket);
  }
  const touch = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "touch", arguments: {}, _meta: META } });
  const churn = setInterval(() => {
    fetch(`${base}/mcp`, {
      method: "POST",
      body: touch,
      signal: AbortSignal.timeout(5_000),
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "touch",
      },
    })
      .then((response) => response.arrayBuffer())
      .catch(() => {});
  }, 20);
  return {
    async close() {
      clearInterval(churn);
      for (const socket of sockets) socket.destroy();
    },
  };
}
