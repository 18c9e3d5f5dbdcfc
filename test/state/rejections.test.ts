import { describe, expect, it } from "vitest";
import { McpError } from "mcp-roundtrip/server";
import { invalidRequestStateError, type RequestBinding, RequestStateSecurity, type RequestStateSecurityOptions } from "../../runtime/state/index.js";
import { BACKENDS, recordingLogger, rejectionOf, SECRET, WIRE_REJECTION } from "./helpers.js";

const NOW = 1_767_225_600;
const ALICE = '["client-123","https://as.example","alice"]';
const BOB = '["client-123","https://as.example","bob"]';
const call: RequestBinding = { method: "tools/call", target: "provision", arguments: { name: "orders" } };

describe.each(BACKENDS)("every cause of rejection on the %s backend", (backend) => {
  let clock = NOW;
  function security(options: RequestStateSecurityOptions = {}) {
    const logger = recordingLogger();
    const instance = new RequestStateSecurity({ keys: [SECRET] }, { crypto: backend, logger, now: () => clock, ...options });
    return { instance, logger };
  }

  /** Mints under `minted`, verifies under `verified`; expects the rejection with `reason`. */
  async function expectRejected(
    reason: string,
    minted: Partial<RequestBinding> & { options?: RequestStateSecurityOptions },
    verified: Partial<RequestBinding> & { options?: RequestStateSecurityOptions; at?: number },
  ) {
    clock = NOW;
    const { instance: minter } = security(minted.options);
    const token = await minter.mint({ ...call, ...minted, state: "secret-plan" });
    const { instance: verifier, logger } = security(verified.options);
    clock = verified.at ?? NOW;
    const error = await rejectionOf(verifier.verify(token, { ...call, ...verified }));
    expect(error.toJSON()).toEqual(WIRE_REJECTION);
    expect(logger.rejections.map((r) => r.reason)).toEqual([reason]);
    // The log line names the reason but never the token, the key or the state.
    for (const line of logger.lines) {
      expect(line).toContain(reason);
      expect(line).not.toContain(token);
      expect(line).not.toContain(token.slice(3, 20));
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain("secret-plan");
    }
    // The same token under the minting binding is fine, so the cause is the difference alone.
    clock = NOW;
    const { instance: control } = security(minted.options);
    await expect(control.verify(token, { ...call, ...minted })).resolves.toBe("secret-plan");
  }

  it("accepts within the window, including 60 s of clock skew", async () => {
    const { instance } = security({ ttl: 30 });
    const token = await instance.mint({ ...call, state: "x" });
    clock = NOW - 59;
    await expect(instance.verify(token, call)).resolves.toBe("x");
    clock = NOW + 29.999;
    await expect(instance.verify(token, call)).resolves.toBe("x");
    clock = NOW;
  });

  // The window ends at exp plus the 60 s skew tolerated both ways.
  it("expired (injected clock)", () => expectRejected("expired", {}, { at: NOW + 660 }));
  it("expired one millisecond after exp and the skew", () => expectRejected("expired", {}, { at: NOW + 660.001 }));
  it("minted in the future", () => expectRejected("issued_in_future", {}, { at: NOW - 61 }));
  it("other method", () => expectRejected("method_mismatch", {}, { method: "prompts/get" }));
  it("other tool", () => expectRejected("target_mismatch", {}, { target: "deprovision" }));
  it("other arguments", () => expectRejected("arguments_mismatch", {}, { arguments: { name: "orders", force: true } }));
  it("arguments absent on one side", () => expectRejected("arguments_mismatch", { arguments: undefined }, { arguments: { a: 1 } }));
  it("other resource uri", () =>
    expectRejected("target_mismatch", { method: "resources/read", target: "file:///a.txt" }, { method: "resources/read", target: "file:///b.txt" }));
  it("other principal", () => expectRejected("principal_mismatch", { principal: ALICE }, { principal: BOB }));
  it("principal only at mint", () => expectRejected("principal_unexpected", { principal: ALICE }, {}));
  it("principal only at verify", () => expectRejected("principal_missing", {}, { principal: ALICE }));
  it("other audience (per call)", () => expectRejected("audience_mismatch", { audience: "billing" }, { audience: "deployer" }));
  it("other audience (security option)", () => expectRejected("audience_mismatch", { options: { audience: "billing" } }, { options: { audience: "deployer" } }));
  it("audience only at mint", () => expectRejected("audience_mismatch", { audience: "billing" }, {}));
  it("audience only at verify", () => expectRejected("audience_mismatch", {}, { audience: "billing" }));
  it("unknown key", async () => {
    const { instance: minter } = security();
    const token = await minter.mint({ ...call, state: "x" });
    const logger = recordingLogger();
    const stranger = new RequestStateSecurity({ keys: ["another-deployment-another-deployment-key"] }, { crypto: backend, logger, now: () => clock });
    await rejectionOf(stranger.verify(token, call));
    expect(logger.rejections[0]).toMatchObject({ reason: "unknown_key", method: "tools/call", target: "provision", keyId: minter.keyIds[0] });
    expect(logger.rejections[0]!.detail).toMatch(/unknown key/);
    // The log line names both the token's key id and what this ring holds, never the token.
    expect(logger.lines[0]).toContain(`key id ${minter.keyIds[0]}`);
    expect(logger.lines[0]).toContain(stranger.keyIds[0]);
    expect(logger.lines[0]).not.toContain(token.slice(3, 20));
  });

  it("the security object's audience overrides the one passed per call", async () => {
    const { instance } = security({ audience: "deployer" });
    const token = await instance.mint({ ...call, audience: "ignored", state: "x" });
    await expect(instance.verify(token, { ...call, audience: "also-ignored" })).resolves.toBe("x");
    const { instance: plain } = security();
    await rejectionOf(plain.verify(token, { ...call, audience: "ignored" }));
    await expect(plain.verify(token, { ...call, audience: "deployer" })).resolves.toBe("x");
  });

  it("argument key order and absent arguments do not matter", async () => {
    const { instance } = security();
    const token = await instance.mint({ ...call, arguments: { b: 1, a: [1, { y: 2, x: 1 }] }, state: "x" });
    await expect(instance.verify(token, { ...call, arguments: { a: [1, { x: 1, y: 2 }], b: 1 } })).resolves.toBe("x");
    const bare = await instance.mint({ method: "prompts/get", target: "p", state: "y" });
    await expect(instance.verify(bare, { method: "prompts/get", target: "p", arguments: {} })).resolves.toBe("y");
    await expect(instance.verify(bare, { method: "prompts/get", target: "p", arguments: null })).resolves.toBe("y");
  });

  it("a token over maxStateBytes is rejected before any crypto", async () => {
    let unsealCalls = 0;
    const logger = recordingLogger();
    const guarded = new RequestStateSecurity(
      {
        codec: {
          seal: (bytes) => Buffer.from(bytes).toString("base64url"),
          unseal: (token) => {
            unsealCalls++;
            return Buffer.from(token, "base64url");
          },
        },
      },
      { crypto: backend, logger, maxStateBytes: 1024, now: () => clock },
    );
    await rejectionOf(guarded.verify("A".repeat(1025), call));
    await rejectionOf(guarded.verify("é".repeat(600), call)); // 600 characters, 1200 UTF-8 bytes
    expect(unsealCalls).toBe(0);
    expect(logger.rejections.map((r) => r.reason)).toEqual(["too_large", "too_large"]);
    // The default cap is 64 KiB.
    const { instance, logger: defaultLogger } = security();
    await rejectionOf(instance.verify("v1." + "A".repeat(64 * 1024), call));
    expect(defaultLogger.rejections[0]!.reason).toBe("too_large");
  });

  it("mint refuses to produce a token its own cap would reject", async () => {
    const { instance } = security({ maxStateBytes: 200 });
    await expect(instance.mint({ ...call, state: "x".repeat(300) })).rejects.toThrow(RangeError);
    await expect(instance.mint({ ...call, state: "x".repeat(300) })).rejects.toThrow(/maxStateBytes/);
  });

  it("each round is sealed afresh: a new token has a new window", async () => {
    const { instance } = security({ ttl: 10 });
    const first = await instance.mint({ ...call, state: "round-1" });
    clock = NOW + 8;
    const second = await instance.mint({ ...call, state: (await instance.verify(first, call)) + "+2" });
    clock = NOW + 75; // past the first token's end plus the 60 s skew, within the second's
    await rejectionOf(instance.verify(first, call));
    await expect(instance.verify(second, call)).resolves.toBe("round-1+2");
    clock = NOW;
  });

  it("a throwing logger does not change the answer", async () => {
    const instance = new RequestStateSecurity(
      { keys: [SECRET] },
      {
        crypto: backend,
        logger: {
          warn: () => {
            throw new Error("log sink down");
          },
        },
      },
    );
    await rejectionOf(instance.verify("v1.nope", call));
  });
});

describe("the fixed rejection", () => {
  it("invalidRequestStateError() is exactly the wire rejection, fresh each time", () => {
    const error = invalidRequestStateError();
    expect(error).toBeInstanceOf(McpError);
    expect(error.toJSON()).toEqual(WIRE_REJECTION);
    expect(invalidRequestStateError()).not.toBe(error);
  });
});
