// Not run: `npm run lint` type-checks it (tsc --noEmit), so index.d.ts and app.d.ts stay usable
// as docs/api.md uses them.
import { check, compare, merge, normalizeOptions, report, run, UsageError } from 'storebench';
import type { ProgressEvent, Result, RunOptions } from 'storebench';
import { startApp } from 'storebench/app';

export async function typed(): Promise<void> {
  const options: RunOptions = { direct: true, stores: ['memory'], concurrency: [5], requests: 200, warmup: 0 };
  const seen: string[] = [];
  const result: Result = await run(options, { onProgress: (event: ProgressEvent) => seen.push(event.type) });
  const p99: number | null = result.steps[0].latency.p99Ms;
  const text: string = report(result, { format: 'text' });
  const gate = check(result, ['memory:p99<50ms', 'errors=0']);
  if (!gate.pass) throw gate.error ?? new Error(gate.text);
  const comparison = compare(result, 'results.json', { failOnRegression: 10 });
  const shown: string = comparison.render();
  const merged: Result = merge(['a.json', 'b.json']);
  const { problems } = normalizeOptions({ concurrency: [0] });
  try {
    await run({ requests: -1 });
  } catch (error) {
    if (error instanceof UsageError) seen.push(...error.problems);
  }
  const app = await startApp({ port: 0, stores: ['memory'] });
  await app.close();
  seen.push(String(p99), text, shown, merged.format, ...problems);
}
