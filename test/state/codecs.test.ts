import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { InvalidRequestState, type RequestStateCodec, RequestStateSecurity } from "../../runtime/state/index.js";
import { recordingLogger, rejectionOf } from "./helpers.js";

const call = { method: "resources/read", target: "db://orders/42" };
const PREFIX = "kms1.";

/** The seed's envelope-encryption codec, sync. */
function kmsCodec(dataKey = randomBytes(32)): RequestStateCodec {
  const aad = Buffer.from(PREFIX);
  return {
    seal(payload) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", dataKey, nonce).setAAD(aad);
      const body = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
      return PREFIX + Buffer.concat([nonce, body]).toString("hex");
    },
    unseal(token) {
      if (!token.startsWith(PREFIX)) throw new InvalidRequestState("unknown token format");
      const body = token.slice(PREFIX.length);
      const raw = Buffer.from(body, "hex");
      if (raw.toString("hex") !== body || raw.length < 28) throw new InvalidRequestState("non-canonical hex");
      try {
        const decipher = createDecipheriv("aes-256-gcm", dataKey, raw.subarray(0, 12)).setAAD(aad);
        decipher.setAuthTag(raw.subarray(-16));
        return Buffer.concat([decipher.update(raw.subarray(12, -16)), decipher.final()]);
      } catch (cause) {
        throw new InvalidRequestState("token failed verification", { cause });
      }
    },
  };
}

/** The same codec behind promises, as a KMS call per token would be. */
function asyncCodec(inner: RequestStateCodec): RequestStateCodec {
  return {
    seal: async (bytes) => inner.seal(bytes),
    unseal: async (token) => inner.unseal(token),
  };
}

describe.each([
  ["sync", () => kmsCodec()],
  ["async", () => asyncCodec(kmsCodec())],
])("a custom %s codec", (_, makeCodec) => {
  it("round-trips, and the SDK still enforces every binding", async () => {
    const logger = recordingLogger();
    let clock = 1000;
    const security = new RequestStateSecurity({ codec: makeCodec() }, { logger, now: () => clock, ttl: 60 });
    const token = await security.mint({ ...call, principal: "alice", state: "page-2" });
    expect(token.startsWith(PREFIX)).toBe(true);
    await expect(security.verify(token, { ...call, principal: "alice" })).resolves.toBe("page-2");
    await rejectionOf(security.verify(token, { ...call, target: "db://orders/43", principal: "alice" }));
    await rejectionOf(security.verify(token, { ...call, principal: "bob" }));
    clock = 1120; // ttl plus the 60 s skew
    await rejectionOf(security.verify(token, { ...call, principal: "alice" }));
    expect(logger.rejections.map((r) => r.reason)).toEqual(["target_mismatch", "principal_mismatch", "expired"]);
  });

  it("an InvalidRequestState from unseal is the normal rejection", async () => {
    const logger = recordingLogger();
    const security = new RequestStateSecurity({ codec: makeCodec() }, { logger });
    const error = await rejectionOf(security.verify("v1.not-mine", call));
    expect(error.toJSON()).toEqual({
      code: -32602,
      message: "Invalid or expired requestState",
      data: { reason: "invalid_request_state" },
    });
    expect(logger.rejections[0]).toMatchObject({ reason: "unseal_failed", detail: "unknown token format" });
  });

  it("a token from another data key is rejected", async () => {
    const a = new RequestStateSecurity({ codec: makeCodec() }, { logger: recordingLogger() });
    const b = new RequestStateSecurity({ codec: makeCodec() }, { logger: recordingLogger() });
    await rejectionOf(b.verify(await a.mint({ ...call, state: "x" }), call));
  });
});

describe("a misbehaving codec fails closed", () => {
  const faults: [string, RequestStateCodec["unseal"]][] = [
    [
      "throws a plain Error",
      () => {
        throw new Error("KMS unavailable");
      },
    ],
    [
      "rejects asynchronously",
      async () => {
        throw new TypeError("socket hang up");
      },
    ],
    [
      "throws a non-error",
      () => {
        throw "boom";
      },
    ],
    ["returns a string", () => "not bytes" as unknown as Uint8Array],
    ["returns undefined", () => undefined as unknown as Uint8Array],
    ["returns bytes that are not an envelope", () => new TextEncoder().encode("hello")],
    ["returns invalid UTF-8", () => Uint8Array.of(0xff, 0xfe)],
    [
      "returns an envelope of the wrong version",
      () => new TextEncoder().encode('{"v":2,"iat":0,"exp":9e15,"m":"resources/read","t":"db://orders/42","a":"","s":""}'),
    ],
    [
      "returns an envelope with a numeric state",
      () => new TextEncoder().encode('{"v":1,"iat":0,"exp":9e15,"m":"resources/read","t":"db://orders/42","a":"","s":1}'),
    ],
  ];
  it.each(faults)("when unseal %s", async (_, unseal) => {
    const logger = recordingLogger();
    const security = new RequestStateSecurity({ codec: { seal: () => "t", unseal } }, { logger });
    const error = await rejectionOf(security.verify("some-token", call));
    expect(error).toBeInstanceOf(InvalidRequestState);
    expect(["codec_error", "malformed_envelope"]).toContain(logger.rejections[0]!.reason);
  });

  it("never logs the token even when the codec's error quotes it", async () => {
    const logger = recordingLogger();
    const token = "kms1.deadbeefdeadbeefdeadbeef";
    const security = new RequestStateSecurity(
      {
        codec: {
          seal: () => "t",
          unseal: (t) => {
            throw new Error(`cannot decrypt ${t}`);
          },
        },
      },
      { logger },
    );
    await rejectionOf(security.verify(token, call));
    expect(logger.lines[0]).not.toContain(token);
    expect(logger.lines[0]).toContain("<requestState>");
  });

  it("a seal that returns a non-string is a programming error at mint", async () => {
    const security = new RequestStateSecurity({ codec: { seal: () => 42 as unknown as string, unseal: () => new Uint8Array() } });
    await expect(security.mint({ ...call, state: "x" })).rejects.toThrow(TypeError);
  });
});

describe("the built-in codec as security.codec", () => {
  it("seals bytes to a v1 token and unseals them", () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] });
    const token = security.codec.seal(Uint8Array.of(1, 2, 3)) as string;
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(security.codec.unseal(token)).toEqual(Buffer.from([1, 2, 3]));
    expect(() => security.codec.unseal(token.slice(0, -2))).toThrow(InvalidRequestState);
    expect(() => security.codec.seal("text" as unknown as Uint8Array)).toThrow(TypeError);
  });

  it("never reuses a nonce", () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] });
    const nonces = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const raw = Buffer.from((security.codec.seal(new Uint8Array()) as string).slice(3), "base64url");
      nonces.add(raw.subarray(4, 16).toString("hex"));
    }
    expect(nonces.size).toBe(2000);
  });
});
