// The child process of bench/lib/server-process.mjs: starts one benchmark
// server, says where it listens, answers CPU-time (and heap) requests over
// IPC, and closes when told. It must then exit on its own: a server that
// leaves handles open fails the workload, as in the worker.
//   node bench/server-host.mjs <module URL> <factory> '<options json>'
const LINGER_MS = 5_000;
let closing = false;

async function main() {
  const [module, factory, optionsJson] = process.argv.slice(2);
  const server = await (await import(module))[factory](JSON.parse(optionsJson));
  process.on("message", async ({ type, id }) => {
    try {
      if (type === "cpu") {
        const { user, system } = process.cpuUsage();
        process.send({ id, value: user + system });
      } else if (type === "close") {
        closing = true;
        await server.close();
        process.send({ id, value: true });
        process.disconnect();
        setTimeout(() => {
          console.error(`server-host ${factory} left handles open after close(): ${process.getActiveResourcesInfo().join(", ")}`);
          process.exit(3);
        }, LINGER_MS).unref();
      } else if (typeof server[type] === "function") {
        process.send({ id, value: await server[type]() });
      } else {
        process.send({ id, error: `the ${factory} server has no "${type}"` });
      }
    } catch (error) {
      process.send({ id, error: error?.stack ?? String(error) });
    }
  });
  // A worker that dies without closing its server must not leave it running.
  process.on("disconnect", () => {
    if (!closing) server.close().finally(() => process.exit(0));
  });
  process.send({ type: "ready", url: server.url });
}

main().catch((error) => {
  process.send?.({ type: "failed", error: error?.stack ?? String(error) });
  process.exitCode = 1;
  process.disconnect?.();
});
