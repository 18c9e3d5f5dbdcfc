// `npm run demo`: builds the package, then runs the provision example.
import { existsSync } from "node:fs";
import { run } from "./run.mjs";

run("build", process.execPath, ["scripts/build.mjs"]);
if (!existsSync("dist/examples/demo/main.js")) {
  console.log("The demo is not yet available: it arrives with the client and server.");
  process.exit(0);
}
run("demo", process.execPath, ["dist/examples/demo/main.js", ...process.argv.slice(2)]);
