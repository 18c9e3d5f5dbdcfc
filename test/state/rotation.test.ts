import { describe, expect, it } from "vitest";
import { RequestStateSecurity } from "../../runtime/state/index.js";
import { BACKENDS, recordingLogger, rejectionOf } from "./helpers.js";

const OLD = "old-key-old-key-old-key-old-key-old-key!";
const NEW = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const call = { method: "tools/call", target: "provision", arguments: { name: "orders" } };

describe.each(BACKENDS)("key rotation on the %s backend", (backend) => {
  const clock = 1_767_225_600;
  const fleet = (keys: (string | Uint8Array)[], logger = recordingLogger()) => new RequestStateSecurity({ keys }, { crypto: backend, now: () => clock, logger });

  it("the three phases keep every in-flight round alive", async () => {
    const before = fleet([OLD]);
    const phase1 = fleet([OLD, NEW]);
    const phase2 = fleet([NEW, OLD]);
    const phase3 = fleet([NEW]);

    // Mid phase 1 rollout: some instances still run `before`; tokens move freely between them.
    const fromBefore = await before.mint({ ...call, state: "b" });
    const fromPhase1 = await phase1.mint({ ...call, state: "1" });
    await expect(phase1.verify(fromBefore, call)).resolves.toBe("b");
    await expect(before.verify(fromPhase1, call)).resolves.toBe("1"); // phase 1 still mints with OLD

    // Mid phase 2 rollout: phase-1 and phase-2 instances verify each other.
    const fromPhase2 = await phase2.mint({ ...call, state: "2" });
    await expect(phase1.verify(fromPhase2, call)).resolves.toBe("2");
    await expect(phase2.verify(fromPhase1, call)).resolves.toBe("1");

    // Phase 3 (one ttl after phase 2 is out): NEW tokens verify, OLD tokens are refused.
    await expect(phase3.verify(fromPhase2, call)).resolves.toBe("2");
    const logger = recordingLogger();
    const retired = fleet([NEW], logger);
    await rejectionOf(retired.verify(fromPhase1, call));
    expect(logger.rejections[0]!.detail).toMatch(/unknown key/);
  });

  it("promoting the new key first breaks rounds in flight (why the order matters)", async () => {
    const early = fleet([NEW, OLD]);
    const lagging = fleet([OLD]);
    await rejectionOf(lagging.verify(await early.mint({ ...call, state: "x" }), call));
  });

  it("keys[0] mints: its key id leads every token", async () => {
    const ring = fleet([NEW, OLD]);
    const alone = fleet([NEW]);
    const kidOf = async (security: RequestStateSecurity) =>
      Buffer.from((await security.mint({ ...call, state: "x" })).slice(3), "base64url")
        .subarray(0, 4)
        .toString("hex");
    expect(await kidOf(ring)).toBe(await kidOf(alone));
    expect(await kidOf(ring)).not.toBe(await kidOf(fleet([OLD])));
  });
});
