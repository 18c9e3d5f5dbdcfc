import { describe, expect, it } from "vitest";
import { InvalidRequestState, RequestStateSecurity } from "../../runtime/state/index.js";
import { BACKENDS, OTHER_SECRET, recordingLogger, rejectionOf, SECRET, WIRE_REJECTION } from "./helpers.js";

const binding = { method: "tools/call", target: "provision", arguments: { name: "orders" } };
const NOW = 1_767_225_600;

function setup(backend: (typeof BACKENDS)[number], keys: string[] = [SECRET]) {
  const logger = recordingLogger();
  const security = new RequestStateSecurity({ keys }, { crypto: backend, logger, now: () => NOW, audience: "svc" });
  return { security, logger };
}

const body = (token: string) => Buffer.from(token.slice(3), "base64url");
const rebuild = (bytes: Uint8Array) => "v1." + Buffer.from(bytes).toString("base64url");

describe.each(BACKENDS)("tampered tokens on the %s backend", (backend) => {
  it("accepts the untouched token (control)", async () => {
    const { security } = setup(backend);
    const token = await security.mint({ ...binding, state: "s" });
    await expect(security.verify(token, binding)).resolves.toBe("s");
  });

  it("rejects a flip of any bit in any byte of the token body", async () => {
    const { security, logger } = setup(backend);
    const token = await security.mint({ ...binding, state: "state-to-protect" });
    const raw = body(token);
    let rejected = 0;
    for (let i = 0; i < raw.length; i++) {
      for (const mask of [0x01, 0x80]) {
        const copy = Uint8Array.from(raw);
        copy[i]! ^= mask;
        const error = await rejectionOf(security.verify(rebuild(copy), binding));
        expect(error.toJSON()).toEqual(WIRE_REJECTION);
        rejected++;
      }
    }
    expect(rejected).toBe(raw.length * 2);
    // Bytes 0–3 are the key id (unknown key); everything else fails authentication.
    expect(new Set(logger.rejections.map((r) => r.reason))).toEqual(new Set(["unknown_key", "unseal_failed"]));
    expect(logger.lines.some((line) => line.includes("unknown key"))).toBe(true);
    expect(logger.lines.some((line) => line.includes("failed authentication"))).toBe(true);
  });

  it("rejects a change of any character of the token string", async () => {
    const { security } = setup(backend);
    const token = await security.mint({ ...binding, state: "s" });
    for (let i = 0; i < token.length; i++) {
      const replacement = token[i] === "A" ? "B" : "A";
      await rejectionOf(security.verify(token.slice(0, i) + replacement + token.slice(i + 1), binding));
    }
  });

  it("rejects every truncation and every extension", async () => {
    const { security } = setup(backend);
    const token = await security.mint({ ...binding, state: "s" });
    for (let length = 0; length < token.length; length++) {
      await rejectionOf(security.verify(token.slice(0, length), binding));
    }
    for (const suffix of ["=", "==", "A", "AA", "AAAA", " ", "\n", "."]) {
      await rejectionOf(security.verify(token + suffix, binding));
    }
    for (const prefix of [" ", "\n", "v1."]) {
      await rejectionOf(security.verify(prefix + token, binding));
    }
  });

  it("rejects a re-prefixed token", async () => {
    const { security } = setup(backend);
    const token = await security.mint({ ...binding, state: "s" });
    for (const prefix of ["v2.", "V1.", "v1:", "", "v1.."]) {
      await rejectionOf(security.verify(prefix + token.slice(3), binding));
    }
  });

  it("rejects a token whose key id was transplanted from another key of the ring", async () => {
    const { security: minter } = setup(backend, [OTHER_SECRET]);
    const { security, logger } = setup(backend, [SECRET, OTHER_SECRET]);
    const mine = body(await security.mint({ ...binding, state: "s" }));
    const theirs = body(await minter.mint({ ...binding, state: "s" }));
    const transplanted = Uint8Array.from(mine);
    transplanted.set(theirs.subarray(0, 4));
    await rejectionOf(security.verify(rebuild(transplanted), binding));
    expect(logger.rejections.at(-1)!.detail).toMatch(/failed authentication/);
  });

  it("rejects non-canonical base64url spellings of a valid token", async () => {
    const { security } = setup(backend);
    // Choose a state that makes the body length ≢ 0 (mod 3), so the last character has spare bits.
    let token = "";
    for (let n = 0; n < 3 && (token === "" || body(token).length % 3 === 0); n++) {
      token = await security.mint({ ...binding, state: "s".repeat(n + 1) });
    }
    expect(body(token).length % 3).not.toBe(0);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(token.at(-1)!);
    const sparedBits = body(token).length % 3 === 1 ? 0x0f : 0x03;
    for (let bits = 1; bits <= sparedBits; bits++) {
      const sloppy = token.slice(0, -1) + alphabet[last | bits]!;
      expect(Buffer.from(sloppy.slice(3), "base64url")).toEqual(body(token)); // lenient decoders accept it
      await rejectionOf(security.verify(sloppy, binding));
    }
    // Padded, and the standard (non-url) alphabet.
    await rejectionOf(security.verify(token + "=".repeat((4 - ((token.length - 3) % 4)) % 4 || 4), binding));
    const standard = "v1." + body(token).toString("base64").replace(/=+$/, "");
    if (standard !== token) await rejectionOf(security.verify(standard, binding));
  });

  it("rejects values that are not strings", async () => {
    const { security, logger } = setup(backend);
    for (const value of [null, undefined, 42, {}, [], true, Buffer.from("v1.")]) {
      await rejectionOf(security.verify(value, binding));
    }
    expect(new Set(logger.rejections.map((r) => r.reason))).toEqual(new Set(["not_a_string"]));
  });

  it("every rejection is an InvalidRequestState with the fixed wire form", async () => {
    const { security } = setup(backend);
    const error = await rejectionOf(security.verify("v1.garbage", binding));
    expect(error).toBeInstanceOf(InvalidRequestState);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("Invalid or expired requestState");
    expect(JSON.parse(JSON.stringify(error))).toEqual(WIRE_REJECTION);
  });
});
