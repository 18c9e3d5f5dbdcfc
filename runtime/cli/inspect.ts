/**
 * `mcp-roundtrip inspect <token>`: what a sealed `requestState` token is.
 * Without keys: its format version, key id and sizes (all in the clear).
 * With the ring: the request it is bound to (method, target, audience),
 * when it was issued and expires, whether a principal is bound, and, only
 * with `--show-state`, the handler's state itself.
 *
 * @module
 * @internal
 */
import type { Command } from "commander";
import { isCanonicalBase64url, decodeBase64url } from "../state/primitives/base64url.js";
import { UnknownKeyId } from "../state/primitives/codec.js";
import { parseEnvelope, type Envelope } from "../state/token/envelope.js";
import { InvalidRequestState } from "../state/primitives/errors.js";
import { hexOf } from "../state/primitives/key-sources.js";
import { RequestStateSecurity } from "../state/token/security.js";
import { CliError, ExitCode } from "./errors.js";
import { readKeyRing, type KeyRingOptions } from "./keys-input.js";

const PREFIX = "v1.";
const OVERHEAD_BYTES = 4 + 12 + 16;

/** What `inspect` reports. @internal */
interface TokenReport {
  format: "v1";
  keyId: string;
  tokenBytes: number;
  sealedPayloadBytes: number;
  /** Present once the ring opened the token. */
  envelope?: {
    method: string;
    target: string;
    audience: string | null;
    issuedAt: string;
    expiresAt: string;
    expired: boolean;
    principalBound: boolean;
    argumentsDigest: string;
    stateBytes: number;
    state?: string;
  };
}

/** Reads the clear parts of a v1 token. @throws {CliError} when it is not one. */
function readHeader(token: string): TokenReport {
  if (!token.startsWith(PREFIX)) throw new CliError('not a v1 token: it does not start with "v1." (a custom codec\'s token cannot be inspected)');
  const body = token.slice(PREFIX.length);
  if (!isCanonicalBase64url(body)) throw new CliError('not a v1 token: the part after "v1." is not canonical unpadded base64url');
  const raw = decodeBase64url(body)!;
  if (raw.length < OVERHEAD_BYTES) throw new CliError(`not a v1 token: ${raw.length} bytes after decoding, fewer than the ${OVERHEAD_BYTES} of its header and tag`);
  return { format: "v1", keyId: hexOf(raw.subarray(0, 4)), tokenBytes: token.length, sealedPayloadBytes: raw.length - OVERHEAD_BYTES };
}

function describeEnvelope(envelope: Envelope, showState: boolean, now: number): NonNullable<TokenReport["envelope"]> {
  const report: NonNullable<TokenReport["envelope"]> = {
    method: envelope.m,
    target: envelope.t,
    audience: envelope.aud ?? null,
    issuedAt: new Date(envelope.iat * 1000).toISOString(),
    expiresAt: new Date(envelope.exp * 1000).toISOString(),
    expired: now >= envelope.exp,
    principalBound: envelope.p !== undefined,
    argumentsDigest: envelope.a,
    stateBytes: Buffer.byteLength(envelope.s),
  };
  if (showState) report.state = envelope.s;
  return report;
}

async function open(token: string, ring: Uint8Array[]): Promise<Envelope> {
  // A silent logger: the CLI reports the outcome itself.
  const security = new RequestStateSecurity({ keys: ring }, { logger: { warn: () => {} } });
  let bytes: Uint8Array;
  try {
    bytes = await security.codec.unseal(token);
  } catch (error) {
    if (error instanceof UnknownKeyId) {
      throw new CliError(`the token's key id ${error.keyId} is not in the ring given (${security.keyIds.join(", ")})`, ExitCode.unknownKey);
    }
    if (error instanceof InvalidRequestState) throw new CliError(`the token fails authentication under its key: ${error.detail ?? "rejected"}`, ExitCode.forged);
    throw error;
  }
  const envelope = parseEnvelope(bytes);
  if (typeof envelope === "string") throw new CliError(`the token opened but its envelope is not v1: ${envelope}`, ExitCode.forged);
  return envelope;
}

function print(report: TokenReport): void {
  const lines = [
    `format         ${report.format}`,
    `key id         ${report.keyId}`,
    `size           ${report.tokenBytes} bytes (sealed envelope ${report.sealedPayloadBytes} bytes)`,
  ];
  const envelope = report.envelope;
  if (envelope === undefined) lines.push("(give the key ring with --keys, --keys-env or --keys-file to see what it is bound to)");
  else {
    lines.push(
      `method         ${envelope.method}`,
      `target         ${envelope.target}`,
      `audience       ${envelope.audience ?? "(none)"}`,
      `issued at      ${envelope.issuedAt}`,
      `expires at     ${envelope.expiresAt}${envelope.expired ? " (expired)" : ""}`,
      `principal      ${envelope.principalBound ? "bound" : "none"}`,
      `arguments      digest ${envelope.argumentsDigest}`,
      `state          ${envelope.stateBytes} bytes${envelope.state === undefined ? " (shown with --show-state)" : ""}`,
    );
    if (envelope.state !== undefined) lines.push(envelope.state);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Adds `inspect` to the program. @internal */
export function registerInspect(program: Command): void {
  program
    .command("inspect")
    .description("show a requestState token's format, key id and size; with the key ring, what request it is bound to and when it expires")
    .argument("<token>", "the token, or - to read it from stdin")
    .option("--keys <ring>", "the key ring, as in MCP_REQUEST_STATE_KEYS (base64url:…,base64url:…)")
    .option("--keys-env <name>", "read the ring from this environment variable")
    .option("--keys-file <path>", "read the ring from this file")
    .option("--show-state", "also print the handler's plaintext state (it may hold user data)")
    .option("--json", "print the report as JSON")
    .addHelpText("after", "\nExit codes: 0 shown, 2 not a v1 token or bad usage, 3 key id not in the ring, 4 fails authentication.")
    .action(async (tokenArgument: string, options: KeyRingOptions & { showState?: boolean; json?: boolean }) => {
      const token = (tokenArgument === "-" ? await readStdin() : tokenArgument).trim();
      const report = readHeader(token);
      const ring = await readKeyRing(options);
      if (ring === undefined && options.showState) throw new CliError("--show-state needs the key ring (--keys, --keys-env or --keys-file)");
      if (ring !== undefined) report.envelope = describeEnvelope(await open(token, ring), options.showState === true, Date.now() / 1000);
      if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else print(report);
    });
}
