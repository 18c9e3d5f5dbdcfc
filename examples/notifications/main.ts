// Runs the notifications example: `npm run build && node dist/examples/notifications/main.js`.
import { runExample } from "./catalog.js";

try {
  const tools = await runExample((line) => console.log(line));
  console.log(`tools now: ${tools.join(", ")}`);
} catch (error) {
  console.error(`The example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
