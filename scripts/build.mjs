// Builds dist/: tsc emits runtime, generated types and examples; the AJV
// standalone validators are plain JavaScript with hand-off .d.ts files, so
// they are copied beside the emitted code rather than compiled.
import { cpSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { bin, run } from "./run.mjs";

rmSync("dist", { recursive: true, force: true });
run("tsc (build)", bin("tsc"), ["-p", "tsconfig.build.json"]);

function copyPlainJs(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) copyPlainJs(path);
    else if (/\.(js|d\.ts)$/.test(entry) && !entry.endsWith(".ts.js")) {
      cpSync(path, join("dist", path));
    }
  }
}
copyPlainJs("generated");
run("bundle entries", process.execPath, ["scripts/bundle-entries.mjs"]);
