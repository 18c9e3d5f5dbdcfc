// The demo under Deno, Bun and Node 22, from the built dist/: the provision
// server on each runtime's own HTTP server (Deno.serve, Bun.serve,
// node:http), the demo client under the same runtime completing its
// hand-driven and automatic multi-round calls over Streamable HTTP against
// it, and this process's client (Node 20 or whatever runs vitest) finishing
// a round against the same server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, isInputRequired, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { ensureBuilt } from "../client/ensure-built.js";
import { bun, deno, node22, runScript, startServer, type Runtime, type RuntimeServer } from "../support/runtimes.js";

const runtimes: [string, () => Runtime, string][] = [
  ["Deno", () => deno, "Deno.serve"],
  ["Bun", () => bun, "Bun.serve"],
  ["Node 22", node22, "node:http"],
];

describe.each(runtimes)("the demo under %s", (_name, which, httpServer) => {
  let runtime: Runtime;
  let server: RuntimeServer;

  beforeAll(async () => {
    ensureBuilt("examples/demo/serve-http.js");
    runtime = which();
    server = await startServer(runtime, "examples/demo/serve-http.js");
  }, 200_000);
  afterAll(() => server?.stop());

  it(`serves the provision server on ${httpServer}`, () => {
    expect(server.banner).toContain(`(${httpServer})`);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("runs the demo client against it: every round, the sealed token, both results", async () => {
    const run = await runScript(runtime, "examples/demo/main.js", [server.url]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Connected to Provisioner 1.0.0 over protocol ${MODERN_PROTOCOL_VERSION}.`);
    expect(run.stdout).toContain('region: elicitation/create "Which region should the database live in?"');
    expect(run.stdout).toMatch(/requestState: v1\.[A-Za-z0-9_-]{11}… \(\d+ chars/);
    expect(run.stdout).toContain("round 2: tools/call provision");
    expect(run.stdout).toContain("Provisioned 'orders' in eu-west-1.");
    expect(run.stdout).toContain("Provisioned 'analytics' in eu-west-1.");
    expect(server.output()).not.toMatch(/server (warning|error)/);
  });

  it("finishes a round with this process's client, and refuses a forged requestState", async () => {
    const client = await Client.connect(server.url, { onElicit: async () => ({ action: "accept", content: { region: "ap-south-1" } }) });
    try {
      const first = await client.session.callTool("provision", { name: "billing" }, { allowInputRequired: true });
      expect(isInputRequired(first)).toBe(true);
      if (!isInputRequired(first)) return;
      const inputResponses = { region: { action: "accept", content: { region: "ap-south-1" } } } as const;
      const token = first.requestState!;
      const forged = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
      await expect(
        client.session.callTool("provision", { name: "billing" }, { allowInputRequired: true, inputResponses, requestState: forged }),
      ).rejects.toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
      const done = await client.session.callTool(
        "provision",
        { name: "billing" },
        {
          allowInputRequired: true,
          inputResponses,
          requestState: first.requestState,
        },
      );
      expect(done).toMatchObject({ content: [{ type: "text", text: "Provisioned 'billing' in ap-south-1." }] });
      const auto = await client.callTool("provision", { name: "search" });
      expect(auto.content).toEqual([{ type: "text", text: "Provisioned 'search' in ap-south-1." }]);
    } finally {
      await client.close();
    }
  });
});
