// Sealing on a runtime without node:crypto (a browser, a worker): the built
// package, in a child process that has neither process.getBuiltinModule nor
// Buffer, picks the portable backend by itself and reproduces the
// independent known-answer vectors through the public API.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { vectors } from "./helpers.js";

beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

/** Runs `body` as an ES module in a child node from which the Node-only globals sealing could use are gone. */
function runWithoutNodeCrypto(body: string): unknown {
  const source = `
    delete process.getBuiltinModule;
    delete globalThis.Buffer;
    const { RequestStateSecurity } = await import("mcp-roundtrip/server");
    const hex = (text) => Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
    const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    const vectors = ${JSON.stringify(vectors)};
    ${body}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node exited ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
}

describe("sealing where node:crypto is absent", () => {
  it("picks the portable backend and opens every known-answer token to its payload", () => {
    const out = runWithoutNodeCrypto(`
      const results = [];
      for (const vector of vectors.token_vectors) {
        const secret = vector.secret_is_utf8_text ? new TextDecoder().decode(hex(vector.secret_hex)) : hex(vector.secret_hex);
        const security = new RequestStateSecurity({ keys: [secret] });
        results.push({ crypto: security.crypto, payload: toHex(await security.codec.unseal(vector.token)) });
      }
      console.log(JSON.stringify(results));`) as { crypto: string; payload: string }[];
    expect(out).toEqual(vectors.token_vectors.map((vector) => ({ crypto: "noble", payload: vector.payload_hex })));
  });

  it("verifies the independent envelope vector, and a token it mints verifies on the node backend", async () => {
    const envelope = vectors.token_vectors.find((v) => Buffer.from(v.payload_hex, "hex").toString().startsWith("{"))!;
    const secret = Buffer.from(envelope.secret_hex, "hex");
    const binding = { method: "tools/call", target: "provision", arguments: { name: "orders" } };
    const out = runWithoutNodeCrypto(`
      const secret = hex(${JSON.stringify(envelope.secret_hex)});
      const binding = ${JSON.stringify(binding)};
      const security = new RequestStateSecurity({ keys: [secret] }, { audience: "Provisioner", now: () => 1767225700 });
      const state = await security.verify(${JSON.stringify(envelope.token)}, binding);
      const minted = await security.mint({ ...binding, state: "portable-state" });
      console.log(JSON.stringify({ state, minted }));`) as { state: string; minted: string };
    expect(out.state).toBe("provision-v1");
    const { RequestStateSecurity } = await import("../../runtime/state/index.js");
    const onNode = new RequestStateSecurity({ keys: [Uint8Array.from(secret)] }, { crypto: "node", audience: "Provisioner", now: () => 1767225700 });
    await expect(onNode.verify(out.minted, binding)).resolves.toBe("portable-state");
  });
});
