// Runs the Express example: `npm run build && node dist/examples/express/main.js [--port 3000]`.
import { startExpressExample } from "./app.js";

const index = process.argv.indexOf("--port");
const port = Number(index === -1 ? (process.env.PORT ?? 3000) : process.argv[index + 1]);
const running = await startExpressExample({ port });
console.error(`MCP endpoint: ${running.url}`);
const stop = () => {
  void running.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
