// Runs the declared-dependencies example: `npm run build && node dist/examples/dependencies/main.js`.
import { runExample } from "./provision.js";

try {
  await runExample((line) => console.log(line), { region: "ap-south-1", gb: 40, yes: true });
} catch (error) {
  console.error(`The example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
