// Validates rendered Kubernetes manifests OFFLINE: every object against the Kubernetes schemas of the
// kubernetes-models package (types, required fields, enums, formats), KEDA and Prometheus-operator
// objects against their CRD models, Strimzi KafkaTopic structurally; then the chart's own rules
// (pod hardening, secrets only by reference, the signer key for chain-settlement alone).
//   node tools/deploy-check/validate-k8s.mjs rendered.yaml [more.yaml ...]
// Exit 0: all valid; 1: problems (each printed as "<file> <Kind>/<name>: <problem>").
import { readFileSync } from 'node:fs';

import { parseAllDocuments } from 'yaml';

const CORE_GROUPS = new Set([
  'v1',
  'apps/v1',
  'batch/v1',
  'policy/v1',
  'autoscaling/v2',
  'networking.k8s.io/v1',
  'rbac.authorization.k8s.io/v1',
]);

// apiVersion -> the module whose exports are the kinds of that group/version
const CRD_MODULES = {
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

async function modelFor(apiVersion, kind) {
  let spec;
  if (CORE_GROUPS.has(apiVersion)) spec = `kubernetes-models/${apiVersion}`;
  else spec = CRD_MODULES[apiVersion];
  if (!spec) return undefined;
  const mod = await import(spec);
  return mod[kind];
}

// Strimzi ships no model package: check the fields the topic operator needs.
function checkKafkaTopic(obj) {
  const problems = [];
  const spec = obj.spec ?? {};
  if (!obj.metadata?.labels?.['strimzi.io/cluster']) problems.push('metadata.labels strimzi.io/cluster is required');
  if (typeof spec.topicName !== 'string' || !/^[a-zA-Z0-9._-]{1,249}$/.test(spec.topicName))
    problems.push('spec.topicName must be a Kafka topic name');
  for (const k of ['partitions', 'replicas'])
    if (!Number.isInteger(spec[k]) || spec[k] < 1) problems.push(`spec.${k} must be a positive integer`);
  if (spec.config !== undefined && (typeof spec.config !== 'object' || Array.isArray(spec.config)))
    problems.push('spec.config must be a map');
  return problems;
}

function podSpecOf(obj) {
  if (obj.kind === 'Pod') return obj.spec;
  if (obj.kind === 'CronJob') return obj.spec?.jobTemplate?.spec?.template?.spec;
  return obj.spec?.template?.spec;
}

const SECRETISH = /(KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL)$/;

// The chart's own rules, on top of the schemas.
function checkPolicy(obj) {
  const problems = [];
  if (obj.kind === 'Secret') problems.push('the chart must not render Secrets: secrets are referenced (existingSecret)');
  const pod = podSpecOf(obj);
  if (!pod) return problems;
  const component = obj.metadata?.labels?.['app.kubernetes.io/component'];
  if (pod.automountServiceAccountToken !== false) problems.push('automountServiceAccountToken must be false');
  if (pod.securityContext?.runAsNonRoot !== true) problems.push('pod securityContext.runAsNonRoot must be true');
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push('pod seccompProfile must be RuntimeDefault');
  const containers = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  for (const c of containers) {
    const sc = c.securityContext ?? {};
    const where = `container ${c.name}`;
    if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true`);
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
    if (!Number.isInteger(sc.runAsUser) || sc.runAsUser === 0) problems.push(`${where}: runAsUser must be a non-zero number`);
    if (!c.resources?.requests || !c.resources?.limits?.memory) problems.push(`${where}: requests and a memory limit are required`);
    if (!(c.volumeMounts ?? []).some((m) => m.mountPath === '/tmp')) problems.push(`${where}: needs an emptyDir at /tmp`);
    for (const e of c.env ?? []) {
      if (SECRETISH.test(e.name) && e.value !== undefined && e.name !== 'KAFKA_SSL_KEY_FILE')
        problems.push(`${where}: ${e.name} has a literal value; secrets come from a Secret reference`);
      if (e.name === 'DATABASE_URL' && component === 'gateway') problems.push('the gateway must not get a DATABASE_URL');
    }
    if ((c.envFrom ?? []).some((f) => f.secretRef)) problems.push(`${where}: envFrom a Secret hands over every key; name the keys`);
    if (c.livenessProbe === undefined && obj.kind !== 'Job') problems.push(`${where}: liveness probe missing`);
    if (obj.kind !== 'Job' && (c.readinessProbe === undefined || c.startupProbe === undefined))
      problems.push(`${where}: readiness and startup probes are required`);
  }
  const mountsSigner = (pod.volumes ?? []).some((v) => v.name === 'signer');
  if (mountsSigner && component !== 'chain-settlement') problems.push('only chain-settlement may mount the signer keys');
  return problems;
}

async function validateObject(obj) {
  if (obj.apiVersion === 'kafka.strimzi.io/v1beta2' && obj.kind === 'KafkaTopic') return checkKafkaTopic(obj);
  const Model = await modelFor(obj.apiVersion, obj.kind);
  if (!Model) return [`no schema known for ${obj.apiVersion} ${obj.kind}: add it to validate-k8s.mjs`];
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    const details = (err.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    return details.length > 0 ? details : [String(err.message ?? err)];
  }
}

export async function validateManifests(text, file = '<input>') {
  const problems = [];
  const counts = {};
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      problems.push(`${file}: YAML error: ${doc.errors[0].message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) continue;
    const id = `${obj.kind}/${obj.metadata?.name ?? '?'}`;
    if (!obj.apiVersion || !obj.kind || !obj.metadata?.name) {
      problems.push(`${file} ${id}: apiVersion, kind and metadata.name are required`);
      continue;
    }
    counts[obj.kind] = (counts[obj.kind] ?? 0) + 1;
    for (const p of [...(await validateObject(obj)), ...checkPolicy(obj)]) problems.push(`${file} ${id}: ${p}`);
  }
  return { problems, counts };
}

async function main(files) {
  if (files.length === 0) {
    process.stderr.write('usage: validate-k8s.mjs <rendered.yaml> [...]\n');
    return 2;
  }
  let failed = false;
  for (const file of files) {
    const { problems, counts } = await validateManifests(readFileSync(file, 'utf8'), file);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const kinds = Object.entries(counts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    if (problems.length > 0) {
      failed = true;
      for (const p of problems) process.stdout.write(`INVALID ${p}\n`);
    }
    process.stdout.write(`${file}: ${total} objects (${kinds}): ${problems.length === 0 ? 'valid' : `${problems.length} problem(s)`}\n`);
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
