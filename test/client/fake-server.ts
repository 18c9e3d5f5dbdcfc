// A hand-scripted MessageHandler for precise loop tests: records every
// request exactly as received and answers MRTR methods from a script.
import { type JsonRpcRequest, type JsonRpcResponse, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";

export type Answer = Record<string, unknown> | { error: { code: number; message: string; data?: unknown } };
export type Script = (params: Record<string, unknown>, request: JsonRpcRequest, index: number) => Answer | Promise<Answer>;

export interface FakeServer {
  handle(message: unknown): Promise<JsonRpcResponse | undefined>;
  /** Every request received, discover included. */
  readonly received: JsonRpcRequest[];
  /** Only the scripted (non-discover) requests. */
  readonly calls: JsonRpcRequest[];
  readonly notifications: unknown[];
}

export function fakeServer(script: Script, options: { discover?: (request: JsonRpcRequest) => Answer | undefined } = {}): FakeServer {
  const received: JsonRpcRequest[] = [];
  const calls: JsonRpcRequest[] = [];
  const notifications: unknown[] = [];
  return {
    received,
    calls,
    notifications,
    async handle(message: unknown) {
      const request = message as JsonRpcRequest;
      if (!("id" in request)) {
        notifications.push(message);
        return undefined;
      }
      received.push(request);
      let answer: Answer;
      if (request.method === "server/discover") {
        answer = options.discover?.(request) ?? {
          resultType: "complete",
          // A modern server of this release: it speaks the newest modern revision the client does.
          supportedVersions: [MODERN_PROTOCOL_VERSION],
          capabilities: { tools: {} },
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "fake", version: "1.2.3" } },
        };
      } else {
        calls.push(request);
        answer = await script(request.params ?? {}, request, calls.length - 1);
      }
      if ("error" in answer) return { jsonrpc: "2.0", id: request.id, error: answer.error as never };
      return { jsonrpc: "2.0", id: request.id, result: answer };
    },
  };
}

export const text = (value: string) => ({ resultType: "complete", content: [{ type: "text", text: value }] });

export const askRegion = {
  method: "elicitation/create",
  params: {
    message: "Which region should the database live in?",
    requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
  },
} as const;

/** A promise with its resolve/reject exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
