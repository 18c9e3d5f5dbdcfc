// The drill's exchanges, one function per kind, each through the SDK's own
// client over nginx: a 2026-07-28 MRTR call of 1-3 rounds, a plain call, a
// 2025 session call whose questions come over the session's stream, a
// `subscriptions/listen` stream that must hear a list change, a task-
// augmented call. Each checks its result against its revision's schema and
// the content the drill expects, and throws `WrongAnswer` when either is off.
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { validate } from "mcp-roundtrip/validate";
import { answerTo, expectedMrtrText } from "./answers.js";
import type { Random } from "./random.js";

/** A result that came back but is not the one expected: never retried, always counted. */
export class WrongAnswer extends Error {
  override readonly name = "WrongAnswer";
}

/** HTTP statuses the clients saw, by status (the SDK's own retries of a 503 show here). */
export type StatusCounter = (status: number) => void;

/** The clients of one simulated user. */
export interface UserClients {
  modern: Client;
  legacy: Client<"2025-11-25">;
  tasks: Client;
  close(): Promise<void>;
}

const callbacks = {
  onElicit: (params: { message: string }) => ({ action: "accept" as const, content: { value: answerTo(params.message) ?? "?" } }),
  onSample: (params: { messages: { content: unknown }[] }) => {
    const content = params.messages[0]?.content as { text?: string } | undefined;
    return { role: "assistant" as const, content: { type: "text" as const, text: answerTo(content?.text ?? "") ?? "?" }, model: "drill" };
  },
};

function transport(url: string, count: StatusCounter): StreamableHttpClientTransport {
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status >= 400) count(response.status);
    return response;
  };
  return new StreamableHttpClientTransport(url, { fetch: counting });
}

/** Connects one user's clients: round-robin for 2026-07-28, a preferred instance for what lives in one (2025 sessions, tasks). */
export async function connectUser(base: string, home: number, count: StatusCounter): Promise<UserClients> {
  const modern = await Client.connect(transport(`${base}/mcp`, count), { ...callbacks, mode: "2026-07-28" });
  const legacy = await Client.connect(transport(`${base}/via/${home}/mcp`, count), { ...callbacks, mode: "2025-11-25" });
  const tasks = await Client.connect(transport(`${base}/via/${home}/mcp`, count), { ...callbacks, mode: "2026-07-28", tasks: true });
  return { modern, legacy, tasks, close: async () => void (await Promise.allSettled([modern.close(), legacy.close(), tasks.close()])) };
}

function textOf(result: unknown, revision: "2026-07-28" | "2025-11-25"): string {
  const checked = validate("CallToolResult", result, { revision });
  if (!checked.ok) throw new WrongAnswer(`not a ${revision} CallToolResult: ${checked.message}`);
  const first = (result as { content: { type: string; text?: string }[] }).content[0];
  return first?.type === "text" ? (first.text ?? "") : "";
}

function expect(actual: string, wanted: string): void {
  if (actual !== wanted) throw new WrongAnswer(`expected ${JSON.stringify(wanted)}, got ${JSON.stringify(actual.slice(0, 120))}`);
}

/** The kinds of exchange, and how often each is drawn. */
export const MIX = [
  ["mrtr", 50],
  ["plain", 25],
  ["session2025", 15],
  ["listen", 5],
  ["task", 5],
] as const;

export type ExchangeKind = (typeof MIX)[number][0];

/** Runs one exchange of `kind`; resolves when it completed with the expected result. */
export async function runExchange(kind: ExchangeKind, id: string, user: UserClients, random: Random): Promise<void> {
  const signal = AbortSignal.timeout(45_000);
  switch (kind) {
    case "mrtr": {
      const plan = Array.from({ length: random.int(1, 3) }, () => (random.next() < 0.7 ? "e" : "s")).join("");
      return expect(textOf(await user.modern.callTool("mrtr", { id, plan }, { signal }), "2026-07-28"), expectedMrtrText(id, plan));
    }
    case "plain":
      return expect(textOf(await user.modern.callTool("echo", { id }, { signal }), "2026-07-28"), `echo ${id}`);
    case "session2025": {
      const plan = Array.from({ length: random.int(1, 2) }, () => (random.next() < 0.7 ? "e" : "s")).join("");
      return expect(textOf(await user.legacy.callTool("mrtr", { id, plan }, { signal }), "2025-11-25"), expectedMrtrText(id, plan));
    }
    case "task":
      return expect(textOf(await user.tasks.callTool("slow_task", { id }, { signal }), "2026-07-28"), `task ${id}`);
    case "listen":
      return listen(user.modern);
  }
}

/** Opens a listen stream, changes the tool list through another request, and waits for the stream to tell. */
async function listen(client: Client): Promise<void> {
  let heard: () => void = () => {};
  const changed = new Promise<void>((resolve) => (heard = resolve));
  const stop = new AbortController();
  const subscription = client.subscribe({ toolsListChanged: true }, { signal: stop.signal, onToolsChanged: () => heard() });
  try {
    await subscription.acknowledged;
    await client.callTool("touch", {});
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error("no tools/list_changed within 5 s")), 5_000)));
    await Promise.race([changed, late]).finally(() => clearTimeout(timer));
  } finally {
    stop.abort();
    await subscription.close().catch(() => {});
  }
}
