// Runs the Fastify example: `npm run build && node dist/examples/fastify/main.js [--port 3000]`.
import { startFastifyExample } from "./app.js";

const index = process.argv.indexOf("--port");
const port = Number(index === -1 ? (process.env.PORT ?? 3000) : process.argv[index + 1]);
const running = await startFastifyExample({ port });
console.error(`MCP endpoint: ${running.url}`);
const stop = () => {
  void running.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
