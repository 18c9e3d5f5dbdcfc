// A TCP proxy for tests of what a client does when its connection breaks:
// it forwards every connection to a target port, records what passed each
// way, and can cut a connection (both sides destroyed, as a dropped network
// or a restarting load balancer would) the moment the server's bytes match.
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** One proxied connection: what the client sent, what the server sent, whether it was cut. */
export interface ProxiedConnection {
  fromClient: string;
  fromServer: string;
  cut: boolean;
}

export interface TcpProxyOptions {
  /**
   * Cut this connection, given the server's bytes so far on it: checked on
   * every chunk from the server, and the cut comes right after that chunk
   * reached the client (so a response has started when its stream breaks).
   */
  cutWhen?: (fromServer: string, connection: ProxiedConnection) => boolean;
  /**
   * When the client closes a connection, keep reading the server's side (and
   * recording it) instead of closing it: shows what the server sent after the
   * client went away, and keeps a disconnect from reading as a cancel.
   */
  holdServerSide?: boolean;
}

/** Starts a proxy on 127.0.0.1 in front of `targetPort`. */
export async function tcpProxy(targetPort: number, options: TcpProxyOptions = {}) {
  const connections: ProxiedConnection[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const record: ProxiedConnection = { fromClient: "", fromServer: "", cut: false };
    connections.push(record);
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    const cut = () => {
      record.cut = true;
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      record.fromClient += chunk.toString("utf8");
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      record.fromServer += chunk.toString("utf8");
      if (record.cut) return;
      const cutNow = options.cutWhen?.(record.fromServer, record) === true;
      if (!client.destroyed) client.write(chunk);
      if (cutNow) setTimeout(cut, 20);
    });
    client.on("close", () => {
      if (!options.holdServerSide) upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
