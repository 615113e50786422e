// `node -r @swc-node/register tools/bench/profile-summary.ts <file.cpuprofile> [fromS] [toS] [top]`
//
// Summarises a V8 CPU profile (what `npm run bench -- --cpu-prof` writes) over a window of seconds
// from the profile's start: self time by frame and by package, and inclusive time by package (a
// sample counts once for every package on its stack). The window matters: the profile also holds
// start-up and the other probes; the bench's log says when each probe ran.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

// node_modules package, node: module, repository project (libs/<x>/<y>, apps/<x>), or a V8 marker.
function packageOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/g);
  if (modules) return modules[modules.length - 1].replace('node_modules/', '');
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const project = /\/((?:libs|apps|tools)\/.+?)\/src\//.exec(url);
  return project ? project[1] : url;
}

const frameOf = (node: ProfileNode): string => {
  const { url, functionName, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
};

export function summarise(profile: CpuProfile, fromS: number, toS: number, top: number): string {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const self = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  const inclusiveByPackage = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const from = profile.startTime + fromS * 1e6;
  const to = profile.startTime + toS * 1e6;
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    total++;
    const node = byId.get(profile.samples[i]) as ProfileNode;
    add(self, frameOf(node));
    add(selfByPackage, packageOf(node));
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id))
      onStack.add(packageOf(byId.get(id) as ProfileNode));
    for (const p of onStack) add(inclusiveByPackage, p);
  }
  const table = (title: string, m: Map<string, number>) =>
    [
      `${title} (${total} samples)`,
      ...[...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => `${((100 * v) / Math.max(1, total)).toFixed(1).padStart(6)} %  ${k}`),
    ].join('\n');
  return [
    table('self time by frame', self),
    table('self time by package', selfByPackage),
    table('inclusive time by package', inclusiveByPackage),
  ].join('\n\n');
}

if (require.main === module) {
  const [file, fromS = '0', toS = '1e9', top = '25'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: profile-summary.ts <file.cpuprofile> [fromS] [toS] [top]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${summarise(profile, Number(fromS), Number(toS), Number(top))}\n`);
}
