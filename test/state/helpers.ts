import { readFileSync } from "node:fs";
import { InvalidRequestState, type RequestStateLogger, type RequestStateRejection } from "../../runtime/state/index.js";

/** Both crypto backends; every format test runs on each. */
export const BACKENDS = ["node", "noble"] as const;

export interface TokenVector {
  secret_hex: string;
  secret_is_utf8_text: boolean;
  derived_key_hex: string;
  kid_hex: string;
  nonce_hex: string;
  payload_hex: string;
  token: string;
}

export interface Vectors {
  token_vectors: TokenVector[];
  argument_digests: { arguments: Record<string, unknown>; canonical_json: string; digest: string }[];
  principal_claim: { principal: string; salt_hex: string; claim: string };
}

/** The known-answer vectors (see test/vectors/README.md). */
export const vectors: Vectors = JSON.parse(readFileSync(new URL("../vectors/request-state-v1.json", import.meta.url), "utf8"));

export const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "hex"));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** A 32-byte secret used across tests. */
export const SECRET = "test-secret-test-secret-test-secret-0001";
export const OTHER_SECRET = "test-secret-test-secret-test-secret-0002";

/** A logger that records every rejection. */
export function recordingLogger(): RequestStateLogger & { lines: string[]; rejections: RequestStateRejection[] } {
  const lines: string[] = [];
  const rejections: RequestStateRejection[] = [];
  return {
    lines,
    rejections,
    warn(message, rejection) {
      lines.push(message);
      rejections.push(rejection);
    },
  };
}

/** Resolves to the rejection a promise failed with; fails the test if it resolved or threw anything else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<InvalidRequestState> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InvalidRequestState) return error;
    throw error;
  }
  throw new Error("expected the requestState to be rejected, but it was accepted");
}

/** The fixed wire form of every rejection. */
export const WIRE_REJECTION = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};
