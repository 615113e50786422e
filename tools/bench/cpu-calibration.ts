import { createHash } from 'node:crypto';

// A fixed piece of CPU work timed in the bench's own process, before the platform starts and after
// the probes: the same machine kind ran it in 600-1,100 ms while idle on one day and the floor and
// bare-server baselines moved threefold with it. The ratios to same-run baselines absorb the machine's
// speed; P2's targets are in milliseconds above the floor, so this says how fast the machine was.
const HASHES = 300_000;

export interface CpuCalibration {
  hashes: number;
  bestMs: number; // the fastest of three rounds: the machine undisturbed
  worstMs: number;
}

export function calibrateCpu(rounds = 3): CpuCalibration {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    let digest = Buffer.alloc(64);
    for (let i = 0; i < HASHES; i++) digest = createHash('sha256').update(digest).digest();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { hashes: HASHES, bestMs: Math.min(...times), worstMs: Math.max(...times) };
}

export function formatCalibration(label: string, c: CpuCalibration): string {
  return `${label}: ${c.hashes.toLocaleString('en-US')} sha256 in ${c.bestMs.toFixed(0)} ms (best of 3; worst ${c.worstMs.toFixed(0)} ms)`;
}
