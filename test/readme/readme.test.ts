// The README's full files (examples/readme/) run here. Its code blocks are
// whole programs of their own, compiled against the built package by the doc
// tests (test/docs/snippets.test.ts), so neither can drift from the API.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, isInputRequired, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { InvalidRequestState, inputRequired, type RequestStateCodec } from "mcp-roundtrip/server";
import { runByHand } from "../../examples/readme/by-hand.js";
import { runClient, textOf } from "../../examples/readme/client.js";
import { behindProxy, fleetServer, oneTimeTokens, rotationPhases, withCodec } from "../../examples/readme/sealing.js";
import { callOverHttp, callOverStdio, handler, serveWithTokens } from "../../examples/readme/transports.js";
import { ensureBuilt, root } from "../client/ensure-built.js";

const KEY_A = "readme-key-a-0123456789abcdef0123456789";
const KEY_B = "readme-key-b-0123456789abcdef0123456789";
const binding = { method: "tools/call", target: "deploy", arguments: { app: "shop" } };

describe("README examples run", () => {
  it("a client finishes both tools through the automatic loop", async () => {
    expect(await runClient()).toEqual(["Deployed shop.", "Provisioned orders in eu-west-1."]);
  });

  it("the hand-driven loop finishes, and a stored pending call is finished by another client", async () => {
    const { byHand, resumed, stored } = await runByHand();
    expect(byHand).toBe("Deployed shop.");
    expect(resumed).toBe("Deployed blog.");
    // The stored form is plain data and carries the sealed state, never the plaintext.
    expect(stored).not.toContain("awaiting-confirm");
    expect(JSON.parse(stored)).toMatchObject({ method: "tools/call", name: "deploy", arguments: { app: "blog" }, round: 1 });
  });

  it("a fleet server with shared keys seals state another instance opens", async () => {
    const instance = () =>
      fleetServer(KEY_A).tool("deploy", {}, (_args, ctx) =>
        ctx.requestState === undefined
          ? inputRequired({
              inputRequests: {
                confirm: { method: "elicitation/create", params: { message: "Go?", requestedSchema: { type: "object", properties: { yes: { type: "boolean" } } } } },
              },
              requestState: "step-1",
            })
          : { content: [{ type: "text", text: `resumed ${ctx.requestState}` }] },
      );
    const one = await Client.connect(instance(), { capabilities: { elicitation: { form: {} } } });
    const round = await one.session.callTool("deploy", {}, { allowInputRequired: true });
    await one.close();
    expect(isInputRequired(round) && round.requestState).toMatch(/^v1\./);
    const two = await Client.connect(instance(), { capabilities: { elicitation: { form: {} } } });
    const done = await two.session.callTool(
      "deploy",
      {},
      {
        requestState: isInputRequired(round) ? round.requestState : undefined,
        inputResponses: { confirm: { action: "accept", content: { yes: true } } },
      },
    );
    await two.close();
    expect(textOf(done)).toBe("resumed step-1");
  });

  it("rotation: every phase accepts the previous phase's tokens; the last rejects the old key's", async () => {
    const [learn, mint, forget] = rotationPhases(KEY_A, KEY_B);
    const oldToken = await learn!.mint({ ...binding, state: "s" });
    const newToken = await mint!.mint({ ...binding, state: "s" });
    expect(await mint!.verify(oldToken, binding)).toBe("s");
    expect(await learn!.verify(newToken, binding)).toBe("s");
    expect(await forget!.verify(newToken, binding)).toBe("s");
    await expect(forget!.verify(oldToken, binding)).rejects.toBeInstanceOf(InvalidRequestState);
  });

  it("principal binding from a proxy header: another user's token is rejected", async () => {
    const security = behindProxy(KEY_A);
    const as = (user: string) => ({ headers: new Headers({ "x-authenticated-user": user }) });
    const token = await security.mint({ ...binding, context: as("alice"), state: "s" });
    expect(await security.verify(token, { ...binding, context: as("alice") })).toBe("s");
    await expect(security.verify(token, { ...binding, context: as("mallory") })).rejects.toBeInstanceOf(InvalidRequestState);
  });

  it("one-time tokens: the second use is rejected", async () => {
    const security = oneTimeTokens(KEY_A);
    const token = await security.mint({ ...binding, state: "s" });
    expect(await security.verify(token, binding)).toBe("s");
    await expect(security.verify(token, binding)).rejects.toBeInstanceOf(InvalidRequestState);
  });

  it("a custom codec carries the envelope; tampering fails closed", async () => {
    const codec: RequestStateCodec = {
      seal: (bytes) => `mine.${Buffer.from(bytes).toString("base64url")}`,
      unseal: (token) => {
        if (!token.startsWith("mine.")) throw new Error("not mine");
        return new Uint8Array(Buffer.from(token.slice(5), "base64url"));
      },
    };
    const security = withCodec(codec);
    const token = await security.mint({ ...binding, state: "s" });
    expect(token.startsWith("mine.")).toBe(true);
    expect(await security.verify(token, binding)).toBe("s");
    await expect(security.verify(`v1.${token}`, binding)).rejects.toBeInstanceOf(InvalidRequestState);
  });

  describe("over HTTP", () => {
    let close: (() => Promise<void>) | undefined;
    afterAll(async () => close?.());

    it("serveHttp with verifyToken: the tokened client finishes, a bare request gets 401", async () => {
      const http = await serveWithTokens();
      close = () => http.close();
      expect(textOf(await callOverHttp(http.url))).toBe("Provisioned orders in us-east-1.");
      const bare = await fetch(http.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(bare.status).toBe(401);
    });

    it("createHttpHandler answers web-standard requests", async () => {
      const transport = new StreamableHttpClientTransport("http://localhost/mcp", { fetch: async (input, init) => handler(new Request(input, init)) });
      const client = await Client.connect(transport, { onElicit: async () => ({ action: "accept", content: { region: "eu-west-1" } }) });
      try {
        expect(textOf(await client.callTool("provision", { name: "logs" }))).toBe("Provisioned logs in eu-west-1.");
      } finally {
        await client.close();
      }
    });
  });

  it("serveStdio: a client started with a command finishes the call", async () => {
    ensureBuilt("examples/readme/stdio-server.js");
    expect(textOf(await callOverStdio(join(root, "dist/examples/readme/stdio-server.js")))).toBe("Provisioned stdio in us-east-1.");
  });
});
