// The integration subpaths and their optional peers: importing one without
// its peer installed fails at once with the package to install, and the
// core entries never load either peer.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

/** Runs `source` with a resolve hook that makes `hidden` look uninstalled. */
function withoutPackage(hidden: string, source: string) {
  const hook = `export async function resolve(specifier, context, next) {
    if (specifier === ${JSON.stringify(hidden)}) {
      const error = new Error("Cannot find package '" + specifier + "'");
      error.code = "ERR_MODULE_NOT_FOUND";
      throw error;
    }
    return next(specifier, context);
  }`;
  const script = `import { register } from "node:module";
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
    ${source}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
}

beforeAll(() => ensureBuilt("runtime/ext/redis/index.js"), 180_000);

describe("optional peers", () => {
  it.each([
    ["mcp-roundtrip/ext/redis", "redis", "npm install redis"],
    ["mcp-roundtrip/ext/otel", "@opentelemetry/api", "npm install @opentelemetry/api"],
  ])("%s without %s says what to install", (subpath, peer, install) => {
    const run = withoutPackage(peer, `await import(${JSON.stringify(subpath)});`);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`${subpath} needs the optional peer dependency "${peer}", which is not installed: run \`${install}\``);
  });

  it("the core entries load without either peer", () => {
    for (const peer of ["redis", "@opentelemetry/api"]) {
      const run = withoutPackage(
        peer,
        `
        for (const entry of ["mcp-roundtrip/server", "mcp-roundtrip/client", "mcp-roundtrip/node", "mcp-roundtrip/state"]) await import(entry);
        console.log("loaded");`,
      );
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe("loaded");
    }
  });
});
