// The floor under an MRTR call over HTTP: a bare `node:http` server that
// plays the confirm tool's two rounds with nothing a protocol library adds,
// but with what any server that keeps no state between rounds must do. The
// first round answers `input_required` with a `requestState` sealed by
// node:crypto AES-256-GCM (a fresh nonce, the tool name and arguments as
// associated data, an expiry inside); the second opens it, checks the
// binding, the expiry and the answer, and completes. Set beside ours, it
// shows what an MRTR request costs on node:http before any SDK's work: the
// bodies are twice the size both ways, and one side of a seal on each. Its
// answers are shaped as ours are (`_meta.serverInfo` included); only the
// sealed state is shorter, with no token format around it (the seal rows).
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { closeServer, listen, onJsonBody } from "../lib/listen.mjs";
import { CONFIRM_SCHEMA, SERVER_INFO, confirmedText } from "./fixtures.mjs";

const META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const STATE_TTL_MS = 10 * 60 * 1000;

/** Seals `state` bound to `binding` (associated data): nonce, ciphertext and tag, base64url. */
function seal(key, state, binding) {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(binding);
  const sealed = Buffer.concat([nonce, cipher.update(JSON.stringify(state), "utf8"), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString("base64url");
}

/** Opens a token from {@link seal} under the same binding; `undefined` when it was altered, rebound or cut. */
function open(key, token, binding) {
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(binding);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString("utf8"));
  } catch {
    return undefined;
  }
}

function answer(res, id, result) {
  const body = JSON.stringify({ jsonrpc: "2.0", id, result });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

function refuse(res, id, code, message) {
  const body = JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
  res.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

/**
 * The MRTR floor server, as the bench's server process runs it (bench/server-host.mjs): the `confirm`
 * tool's two rounds, and nothing else.
 */
export async function mrtrFloorServer() {
  const key = createSecretKey(randomBytes(32));
  const server = createServer((req, res) => {
    onJsonBody(req, res, (message) => {
      const params = message.params;
      if (params?.name !== "confirm" || typeof params.arguments?.text !== "string") return refuse(res, message.id, -32602, "only the confirm tool");
      const binding = Buffer.from(`tools/call\n${params.name}\n${JSON.stringify(params.arguments)}`, "utf8");
      const text = params.arguments.text;
      if (params.requestState === undefined) {
        answer(res, message.id, {
          resultType: "input_required",
          _meta: META,
          inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: `Confirm ${text}?`, requestedSchema: CONFIRM_SCHEMA } } },
          requestState: seal(key, { text, exp: Date.now() + STATE_TTL_MS }, binding),
        });
        return;
      }
      const state = typeof params.requestState === "string" ? open(key, params.requestState, binding) : undefined;
      if (state === undefined || !(state.exp > Date.now())) return refuse(res, message.id, -32602, "requestState rejected");
      const reply = params.inputResponses?.confirm;
      const confirmed = reply?.action === "accept" && reply.content?.confirm === true;
      const content = [{ type: "text", text: confirmed ? confirmedText(state.text) : "declined" }];
      answer(res, message.id, { content, resultType: "complete", _meta: META });
    });
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}
