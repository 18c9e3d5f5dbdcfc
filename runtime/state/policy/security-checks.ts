import type { RequestStateCodec } from "../primitives/codec.js";
import { describe } from "../primitives/keys.js";
import type { RequestBinding } from "./security-types.js";

/**
 * Argument checks and small helpers of `RequestStateSecurity`: misuse is a
 * TypeError or RangeError that names the option and says what was expected.
 *
 * @module
 * @internal
 */

/** @throws {TypeError} when a binding field has the wrong type (a server bug, not a rejection). */
export function assertBinding(binding: RequestBinding, operation: string): void {
  if (typeof binding !== "object" || binding === null) {
    throw new TypeError(`${operation} expected { method, target, arguments? }, got ${describe(binding)}`);
  }
  // Field by field rather than a loop over names: this runs on every mint and verify.
  if (typeof binding.method !== "string") throw fieldError(operation, "method", "a string", binding.method);
  if (typeof binding.target !== "string") throw fieldError(operation, "target", "a string", binding.target);
  if (binding.principal !== undefined && typeof binding.principal !== "string") {
    throw fieldError(operation, "principal", "a string or undefined", binding.principal);
  }
  if (binding.audience !== undefined && typeof binding.audience !== "string") {
    throw fieldError(operation, "audience", "a string or undefined", binding.audience);
  }
  if (binding.now !== undefined && !Number.isFinite(binding.now)) {
    throw new TypeError(`${operation} expected "now" to be a finite number of seconds, got ${describe(binding.now)}`);
  }
}

function fieldError(operation: string, field: string, expected: string, value: unknown): TypeError {
  return new TypeError(`${operation} expected "${field}" to be ${expected}, got ${describe(value)}`);
}

/** @throws {TypeError} unless `codec` has `seal` and `unseal` methods. */
export function assertCodec(codec: unknown): void {
  const candidate = codec as Partial<RequestStateCodec> | null;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.seal !== "function" || typeof candidate.unseal !== "function") {
    throw new TypeError(`RequestStateSecurity: "codec" expected an object with seal(bytes) → string and unseal(string) → bytes, got ${describe(codec)}`);
  }
}

/** @throws {RangeError} unless `value` is a positive finite number (an integer when `integer`). */
export function checkPositive(name: string, value: unknown, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isSafeInteger(value))) {
    throw new RangeError(
      `RequestStateSecurity: "${name}" expected a positive ${integer ? "integer" : "number"}, got ${typeof value === "number" ? value : describe(value)}`,
    );
  }
  return value;
}

/** @throws {RangeError} when `value` is not a finite number ≥ 0. */
export function checkNonNegative(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`RequestStateSecurity: "${name}" expected a number of seconds ≥ 0, got ${typeof value === "number" ? value : describe(value)}`);
  }
  return value;
}

/** @throws {TypeError} when `value` is given but is not a function. */
export function checkFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new TypeError(`RequestStateSecurity: "${name}" expected a function, got ${describe(value)}`);
  }
  return value;
}

/** Names an error for the log, with the token cut out in case the thrower quoted it. */
export function describeError(error: unknown, token: string): string {
  const name = error instanceof Error ? error.name : describe(error);
  const message = error instanceof Error ? error.message : "";
  const redacted = token.length >= 8 ? message.split(token).join("<requestState>") : message;
  return message ? `${name}: ${redacted.slice(0, 200)}` : name;
}

/** UTF-8 length of a string without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two code units become four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
