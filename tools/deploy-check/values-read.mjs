// Every key of values.yaml must change what the chart renders: a key nothing reads is a setting that
// silently does nothing (the old chart took ingress, resources or PDB keys and rendered the same bytes).
// For each scalar in values.yaml, render with that one value changed, on top of each base values set,
// and compare with the unchanged render; a key is read if the output (or the refusal) differs for at
// least one base. Keys under free-form maps (env, labels, annotations, selectors, resources) and in
// lists are not mutated: the schema and the Kubernetes validation cover their content.
//   node tools/deploy-check/values-read.mjs <helm> <chart> <kube-version> -- <base args> [-- <base args> ...]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

const FREE_FORM = new Set(['env', 'labels', 'annotations', 'podAnnotations', 'nodeSelector', 'affinity', 'resources', 'namespaceSelector', 'podSelector', 'matchLabels']);

function leaves(node, path = []) {
  if (node === null || typeof node !== 'object') return [{ path, value: node }];
  if (Array.isArray(node)) return [];
  return Object.entries(node).flatMap(([k, v]) => (FREE_FORM.has(k) || k.includes('.') ? [] : leaves(v, [...path, k])));
}

function mutate(value, path) {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (path.at(-1) === 'usdcAddress') return '0x1111111111111111111111111111111111111111';
  if (typeof value === 'string') return value === '' ? 'mutated' : `${value}x`;
  return undefined;
}

function render(helm, args) {
  try {
    return execFileSync(helm, ['template', 'onramp', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    return `ERROR ${String(err.stderr ?? err.message)}`;
  }
}

function main(argv) {
  const [helm, chart, kubeVersion, ...rest] = argv;
  const bases = [];
  for (const arg of rest) {
    if (arg === '--') bases.push([]);
    else bases.at(-1)?.push(arg);
  }
  const common = [chart, '--namespace', 'onramp', '--kube-version', kubeVersion];
  const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8'));
  const baselines = bases.map((b) => render(helm, [...common, ...b]));
  baselines.forEach((out, i) => {
    if (out.startsWith('ERROR')) throw new Error(`base ${bases[i].join(' ')} does not render: ${out}`);
  });
  const unread = [];
  let checked = 0;
  for (const { path, value } of leaves(values)) {
    const changed = mutate(value, path);
    if (changed === undefined) continue;
    checked++;
    const set = `${path.join('.')}=${JSON.stringify(changed)}`;
    const read = bases.some((b, i) => render(helm, [...common, ...b, '--set-json', set]) !== baselines[i]);
    if (!read) unread.push(path.join('.'));
  }
  for (const key of unread) process.stdout.write(`UNREAD values key ${key}: changing it changes nothing\n`);
  process.stdout.write(`values keys: ${checked} checked, ${unread.length} read by nothing\n`);
  return unread.length === 0 ? 0 : 1;
}

process.exit(main(process.argv.slice(2)));
