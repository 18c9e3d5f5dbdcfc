// Runs the fleet example: `npm run build && node dist/examples/fleet/main.js`.
// Needs nginx and redis-server on PATH (Debian: apt-get install nginx redis-server);
// everything listens on 127.0.0.1 and stops when the example ends.
import { accessSync, constants } from "node:fs";
import { fileURLToPath } from "node:url";
import { decodeKeyEntry, keyIdOf } from "mcp-roundtrip/state";
import { runFleetExample } from "./run.js";

function find(program: string): string {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    try {
      accessSync(`${dir}/${program}`, constants.X_OK);
      return `${dir}/${program}`;
    } catch {
      // not here
    }
  }
  throw new Error(`${program} is not installed: apt-get install -y ${program === "nginx" ? "nginx" : "redis-server"}`);
}

const key = () => `base64url:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
const [current, next] = [key(), key()];
const outcome = await runFleetExample(
  { nginx: find("nginx"), instanceScript: fileURLToPath(new URL("./instance.js", import.meta.url)) },
  current,
  `${current},${next}`,
);
for (const line of outcome.results) console.log(line);
console.log(`answered by ${outcome.instances.join(", ")}; key ids ${keyIdOf(decodeKeyEntry(current))} → also ${keyIdOf(decodeKeyEntry(next))}`);
for (const ring of outcome.rings) console.log(ring);
