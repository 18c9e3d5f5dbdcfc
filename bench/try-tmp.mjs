const mod = await import(process.argv[2]);
const inst = await mod[process.argv[3]](JSON.parse(process.argv[4] ?? "{}"));
const c = Number(process.argv[5] ?? 16);
const r = await inst.call();
inst.check(r);
async function win(ms) {
  const c0 = await inst.serverCpu();
  const t0 = performance.now();
  let n = 0;
  const lanes = Array.from({ length: c }, async () => {
    while (performance.now() - t0 < ms) {
      await inst.call();
      n++;
    }
  });
  await Promise.all(lanes);
  const c1 = await inst.serverCpu();
  return [Math.round(n / ((performance.now() - t0) / 1000)), ((c1 - c0) / n).toFixed(1)];
}
await win(Number(process.env.WARM ?? 4000));
const out = [];
for (let i = 0; i < 3; i++) out.push((await win(1500)).join("/"));
console.log(process.argv[3], process.argv[4], "c=" + c, "ops/s / server µs/call:", out.join("  "));
await inst.close();
