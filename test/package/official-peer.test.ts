// `mcp-roundtrip/ext/official` declares `@modelcontextprotocol/server` as an
// optional peer and imports nothing from it, at run time or in its types: it
// loads, mints and verifies in a process where that package cannot be
// resolved at all, so there is no "install X" error to give.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
};

beforeAll(() => ensureBuilt("runtime/ext/official/index.js"), 180_000);

describe("mcp-roundtrip/ext/official without the official SDK", () => {
  it("declares @modelcontextprotocol/server an optional peer, kept as a devDependency for the tests", () => {
    expect(pkg.peerDependencies?.["@modelcontextprotocol/server"]).toBeDefined();
    expect(pkg.peerDependenciesMeta?.["@modelcontextprotocol/server"]).toEqual({ optional: true });
    expect(pkg.devDependencies?.["@modelcontextprotocol/server"]).toBe("2.4.0");
  });

  it("loads and seals in a process that cannot resolve any @modelcontextprotocol package", () => {
    // A resolve hook (off-thread on Node 20, so a data: URL) that refuses the official packages as a missing install would.
    const hook = `export async function resolve(specifier, context, next) {
        if (specifier.startsWith("@modelcontextprotocol/")) {
          const error = new Error("Cannot find package '" + specifier + "'");
          error.code = "ERR_MODULE_NOT_FOUND";
          throw error;
        }
        return next(specifier, context);
      }`;
    const script = `
      import { register } from "node:module";
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
      const refused = await import("@modelcontextprotocol/server").then(() => "loaded", (error) => error.code);
      const { createSealedRequestStateCodec, RequestStateSecurity } = await import("mcp-roundtrip/ext/official");
      const codec = createSealedRequestStateCodec(RequestStateSecurity.ephemeral(), {
        audience: "no-peer",
        bindRequest: () => ({ target: "t", arguments: { a: 1 } }),
      });
      const ctx = { mcpReq: { id: 1, method: "tools/call" } };
      const payload = await codec.verify(await codec.mint({ ok: true }, ctx), ctx);
      process.stdout.write(JSON.stringify({ refused, payload }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ refused: "ERR_MODULE_NOT_FOUND", payload: { ok: true } });
  });

  it("names no @modelcontextprotocol package in its built code or declarations", () => {
    const dir = join(root, "dist", "runtime", "ext", "official");
    const files = readdirSync(dir).filter((name) => /\.(js|d\.ts)$/.test(name));
    expect(files).toContain("index.d.ts");
    for (const name of files) {
      expect(readFileSync(join(dir, name), "utf8"), name).not.toMatch(/from\s+["']@modelcontextprotocol\//);
    }
  });
});
