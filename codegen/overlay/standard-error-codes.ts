import { isObject } from "../json.js";
import type { Correction } from "./types.js";

/**
 * Supplies JSON-RPC error codes a revision's schema does not define (the
 * 2025-11-25 schema keeps them only in its TypeScript source), so every
 * revision's `ErrorCode` table is complete.
 */
const standardErrorCodes: Correction = (target, entry) => {
  const codes = entry.codes;
  if (!isObject(codes)) throw new Error('overlay standard-error-codes: "codes" must map names to integers');
  for (const [name, code] of Object.entries(codes)) {
    if (!Number.isInteger(code)) throw new Error(`overlay standard-error-codes: ${name} must be an integer`);
    target.extraErrorCodes[name] = code as number;
  }
};
export default standardErrorCodes;
