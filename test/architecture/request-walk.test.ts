// The walk of one request, measured rather than read: a tools/call of each generation, from the HTTP entry to
// the tool body, lists the runtime modules that ran a function on the way (V8 precise coverage in a child
// node, reset just before the call: see walk-child.mjs). docs/internals.md walks the same path by hand; this
// keeps the path from growing back. The counting rule is the one that page uses: protocol/guards.ts (isObject,
// called on almost every step) and protocol/flight-table.ts (a data structure, like a Map) are named but not
// counted; data tables run no function and so never appear.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

/** The most modules a request may pass through on its way to the handler (issue 24's bound). */
const MOST_FILES = 12;

const NOT_COUNTED = new Set(["runtime/protocol/guards.ts", "runtime/protocol/flight-table.ts"]);

function walk(entry: "web" | "node", generation: "2026" | "2025"): string[] {
  const run = spawnSync(process.execPath, [join(root, "test/architecture/walk-child.mjs"), root.replace(/\/$/, ""), entry, generation], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`walk-child exited ${run.status}:\n${run.stderr}`);
  return (JSON.parse(run.stdout) as string[]).filter((file) => !NOT_COUNTED.has(file)).sort();
}

beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

describe("the walk of one tools/call from the HTTP entry (createHttpHandler) to the tool body", () => {
  it("passes through at most 12 modules for a 2026-07-28 request, each deciding nothing twice", () => {
    const files = walk("web", "2026");
    console.log(`2026-07-28 tools/call, ${files.length} modules:\n  ${files.join("\n  ")}`);
    expect(files.length).toBeLessThanOrEqual(MOST_FILES);
    // The era is decided at the edge (protocol/message.ts) and nowhere after: no 2025 module takes part.
    expect(files).toContain("runtime/protocol/message.ts");
    expect(files.filter((file) => file.includes("/legacy/"))).toEqual([]);
    // Tasks are a route, not a wrapper: a tool that declares no task never enters the task engine.
    expect(files.filter((file) => file.includes("/tasks/"))).toEqual([]);
  });

  it("passes through at most 12 modules for a 2025 session's request, the same request path included", () => {
    const files = walk("web", "2025");
    console.log(`2025-11-25 session tools/call, ${files.length} modules:\n  ${files.join("\n  ")}`);
    expect(files.length).toBeLessThanOrEqual(MOST_FILES);
    // One object per session, and the pipeline both generations share.
    expect(files).toEqual(expect.arrayContaining(["runtime/server/legacy/session.ts", "runtime/server/request.ts", "runtime/protocol/message.ts"]));
    expect(files).not.toContain("runtime/server/modern.ts");
  });

  it("adds only the node:http binding under serveHttp", () => {
    for (const generation of ["2026", "2025"] as const) {
      const web = walk("web", generation);
      const node = walk("node", generation);
      const added = node.filter((file) => !web.includes(file));
      const dropped = web.filter((file) => !node.includes(file));
      console.log(`serveHttp, ${generation}: ${node.length} modules; adds ${added.join(", ")}; drops ${dropped.join(", ")}`);
      expect(dropped).toEqual(["runtime/transport/http/server/web.ts"]);
      expect(added.every((file) => file.startsWith("runtime/transport/http/server/"))).toBe(true);
    }
  });
});
