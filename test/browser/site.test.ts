// examples/browser/main.ts as a process, without a browser: it prints the
// page's address and the MCP server's, serves the page and its bundled
// script (which may reach only the MCP server's origin), and the MCP server
// refuses an origin other than the page's.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

describe("node dist/examples/browser/main.js", () => {
  const child = { process: undefined as ReturnType<typeof spawn> | undefined };
  let page: URL;
  let mcp: URL;

  beforeAll(async () => {
    ensureBuilt("examples/browser/main.js");
    const started = spawn(process.execPath, [join(root, "dist/examples/browser/main.js")], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child.process = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no addresses within 20 s:\n${output}`)), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const pageLine = /^page\s+(\S+)$/m.exec(output);
        const serverLine = /^server\s+(\S+) \(allows the origin (\S+)\)$/m.exec(output);
        if (pageLine && serverLine) {
          clearTimeout(timer);
          page = new URL(pageLine[1]!);
          mcp = new URL(serverLine[1]!);
          expect(serverLine[2]).toBe(page.origin);
          resolve();
        }
      };
      started.stdout.on("data", onData);
      started.stderr.on("data", onData);
      started.once("exit", (code) => reject(new Error(`exited ${String(code)}:\n${output}`)));
    });
  }, 60_000);

  afterAll(() => {
    child.process?.kill("SIGINT");
  });

  it("names the MCP server in the page's address", () => {
    expect(page.searchParams.get("server")).toBe(mcp.href);
    expect(mcp.origin).not.toBe(page.origin);
  });

  it("serves the page and its bundle, allowed to connect only to the MCP server's origin", async () => {
    const html = await fetch(page);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-security-policy")).toContain(`connect-src ${mcp.origin}`);
    expect(await html.text()).toContain('<script type="module" src="./app.js"></script>');
    const script = await fetch(new URL("/app.js", page));
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await fetch(new URL("/secret", page))).status).toBe(404);
  });

  it("the MCP server refuses a request from another origin", async () => {
    const response = await fetch(mcp, {
      method: "POST",
      headers: { origin: "http://127.0.0.1:1", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
    });
    expect(response.status).toBe(403);
  });
});
