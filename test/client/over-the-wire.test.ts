// The same client loop over real wires: Streamable HTTP on loopback, and a
// stdio child process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, isInputRequired, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { createProvisionServer } from "../../examples/demo/provision-server.js";
import { ensureBuilt, root } from "./ensure-built.js";

const quiet = { warn() {}, error() {} };

describe("over Streamable HTTP", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(createProvisionServer(quiet));
  });
  afterAll(() => http.close());

  it("runs the multi-round loop against a URL target", async () => {
    const client = await Client.connect(http.url, { onElicit: () => ({ action: "accept", content: { region: "eu-central-1" } }) });
    expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(client.serverInfo?.name).toBe("Provisioner");
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned 'orders' in eu-central-1." }]);
    await client.close();
  });

  it("lets one client start a call and another finish it from the stored pending call", async () => {
    const first = await Client.connect(http.url, { capabilities: { elicitation: { form: {} } } });
    const round = await first.session.callTool("provision", { name: "billing" }, { allowInputRequired: true });
    if (!isInputRequired(round)) throw new Error("expected input_required");
    const stored = JSON.stringify(first.session.pending(round));
    await first.close();

    const second = await Client.connect(http.url, { onElicit: () => ({ action: "accept", content: { region: "us-east-1" } }) });
    const result = await second.resume(stored);
    expect(result).toMatchObject({ content: [{ type: "text", text: "Provisioned 'billing' in us-east-1." }] });
    await second.close();
  });
});

describe("over stdio", () => {
  let dir: string;
  let script: string;
  beforeAll(() => {
    ensureBuilt("examples/demo/provision-server.js");
    ensureBuilt("runtime/entries/server.js");
    dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-client-"));
    script = join(dir, "server.mjs");
    const dist = (path: string) => JSON.stringify(pathToFileURL(join(root, "dist", path)).href);
    writeFileSync(
      script,
      `import { createProvisionServer } from ${dist("examples/demo/provision-server.js")};\n` +
        `import { serveStdio } from ${dist("runtime/entries/node.js")};\n` +
        `serveStdio(createProvisionServer());\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the multi-round loop against a { command, args } target", async () => {
    const client = await Client.connect(
      { command: process.execPath, args: [script] },
      { onElicit: () => ({ action: "accept", content: { region: "ap-northeast-1" } }) },
    );
    try {
      const result = await client.callTool("provision", { name: "orders" });
      expect(result.content).toEqual([{ type: "text", text: "Provisioned 'orders' in ap-northeast-1." }]);
    } finally {
      await client.close();
    }
  });
});
