// The benchmarks `npm run bench` knows, by id and name (index.ts maps each id to its runner; the docs test checks each has a row).
export const BENCH_CATALOG = [
  { id: 'a', name: 'scheduling overhead' },
  { id: 'b', name: 'process overhead' },
  { id: 'b2', name: 'native script overhead' },
  { id: 'c', name: 'NDJSON throughput' },
  { id: 'd', name: 'pattern narrator latency' },
  { id: 'e', name: 'local-model narrator (Phi-3.5-mini shape)' },
  { id: 'f', name: 'plan validation and completion' },
  { id: 'g', name: 'plan graph layout and first paint' },
  { id: 'h', name: 'debugger overhead and stepBack' },
  { id: 'i', name: 'playtests against plain turns' },
  { id: 'j', name: 'explore: turns per second, coverage overhead, peak RSS' },
  { id: 'k', name: 'campaign validation: a 500-file campaign against the 2 s of SC-003' },
  { id: 'l', name: 'lore chunking: 5 MB against a 2 s budget, and retrieval' },
  { id: 'm', name: 'campaign scene transition: pattern narrator, p50 and p95 against the 3 s of SC-001' },
] as const;

export type BenchId = (typeof BENCH_CATALOG)[number]['id'];

export const BENCH_IDS: readonly BenchId[] = BENCH_CATALOG.map((bench) => bench.id);

export function isBenchId(value: string): value is BenchId {
  return (BENCH_IDS as readonly string[]).includes(value);
}
