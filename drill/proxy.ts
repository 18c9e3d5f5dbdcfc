// A small TCP proxy between nginx and one instance, for fault injection:
// while `latencyMs` is set, every chunk waits that long each way; while
// `resetEvery` is n > 0, the connection that carries every n-th chunk from
// nginx is reset (RST) once the chunk went through, so the request reached
// the instance and its answer is lost, as a flaky network or a dying
// middlebox does it.
import { connect, createServer, type Server, type Socket } from "node:net";

/** What the proxy injects right now (the fault schedule changes it mid-run). */
interface ProxyFaults {
  latencyMs: number;
  resetEvery: number;
}

/** A running proxy. */
export interface FaultProxy {
  readonly port: number;
  readonly faults: ProxyFaults;
  /** Connections reset so far. */
  resets(): number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 to the port `target()` names at each new connection. */
export async function startProxy(target: () => number): Promise<FaultProxy> {
  const faults: ProxyFaults = { latencyMs: 0, resetEvery: 0 };
  const open = new Set<Socket>();
  let chunks = 0;
  let resets = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(target(), "127.0.0.1");
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {});
    }
    const pipe = (from: Socket, to: Socket, first: boolean) =>
      from.on("data", (chunk) => {
        if (first && faults.resetEvery > 0 && ++chunks % faults.resetEvery === 0) {
          // The request reached the instance; the answer never comes back.
          to.write(chunk);
          resets++;
          setTimeout(() => {
            client.resetAndDestroy();
            upstream.destroy();
          }, 5);
          return;
        }
        const delay = faults.latencyMs;
        if (delay <= 0) to.write(chunk);
        else setTimeout(() => to.destroyed || to.write(chunk), delay);
      });
    pipe(client, upstream, true);
    pipe(upstream, client, false);
    client.on("end", () => setTimeout(() => upstream.end(), faults.latencyMs));
    upstream.on("end", () => setTimeout(() => client.end(), faults.latencyMs));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    faults,
    resets: () => resets,
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
