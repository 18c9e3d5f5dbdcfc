export async function runFuzz(_options: { mutations: number; http: number; seed: number; log: (line: string) => void }): Promise<{ ok: boolean; line: string }> {
  throw new Error("not yet");
}
