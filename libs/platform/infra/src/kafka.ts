import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { freePort } from '@onramp/chain';

import type { InfraConfig } from './config';
import { dockerAvailable } from './docker';
import { guardAgainstOrphan } from './orphan-guard';
import { findRepoRoot, makeRunDir, removeRunDir } from './run-dir';

export interface StartKafkaOptions {
  // Persistent broker directory (config, logs, topic data); default: a throw-away directory.
  kafkaHome?: string;
  port?: number;
  controllerPort?: number;
  // default: use Docker when an engine answers
  docker?: boolean;
}

export interface KafkaHandle {
  brokers: string; // comma-separated host:port list, as in KAFKA_BROKERS
  source: 'env' | 'docker' | 'local';
  stop(): Promise<void>;
  // Local broker only, for fault injection: stop the server keeping its topics and offsets, and
  // start it again on the same ports.
  stopServer?(): Promise<void>;
  startServer?(): Promise<void>;
}

// A cold Maven resolution of ~46 jars; later starts hit the jar cache and take seconds.
const FIRST_START_TIMEOUT_MS = 10 * 60_000;

type KafkaInfraConfig = Pick<
  InfraConfig,
  'kafkaBrokers' | 'docker' | 'kafkaLibsDir' | 'kafkaVersion' | 'scriptEnv'
>;

// KAFKA_BROKERS (config.kafkaBrokers) names an existing broker; else Docker, else a local one.
export async function startKafka(
  config: KafkaInfraConfig,
  opts: StartKafkaOptions = {},
): Promise<KafkaHandle> {
  const existing = config.kafkaBrokers;
  if (existing) return { brokers: existing, source: 'env', stop: async () => undefined };
  if (opts.docker ?? (await dockerAvailable(config.docker))) return startInDocker();
  return startLocal(config, opts);
}

async function startInDocker(): Promise<KafkaHandle> {
  const { KafkaContainer } = await import('@testcontainers/kafka');
  // KRaft mode: no ZooKeeper container
  const container = await new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start();
  return {
    brokers: `${container.getHost()}:${container.getMappedPort(9093)}`,
    source: 'docker',
    stop: async () => void (await container.stop()),
  };
}

async function startLocal(config: KafkaInfraConfig, opts: StartKafkaOptions): Promise<KafkaHandle> {
  const persistent = Boolean(opts.kafkaHome);
  const runDir = persistent ? undefined : makeRunDir('kafka');
  const kafkaHome = opts.kafkaHome ?? (runDir as string);
  mkdirSync(kafkaHome, { recursive: true });
  const port = opts.port || (await freePort());
  const controllerPort = opts.controllerPort || (await freePortOtherThan(port));
  const env: NodeJS.ProcessEnv = {
    ...config.scriptEnv,
    KAFKA_HOME: kafkaHome,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    KAFKA_KEEP_DATA: persistent ? '1' : '',
  };

  const stopProgress = reportFirstFetch(config);
  try {
    await runScript('start', env, FIRST_START_TIMEOUT_MS);
  } catch (err) {
    stopProgress();
    await runScript('stop', env, 60_000).catch(() => undefined);
    if (runDir) removeRunDir(runDir);
    throw err;
  }
  stopProgress();
  const guard = (): (() => void) =>
    guardAgainstOrphan(Number(readFileSync(join(kafkaHome, 'kafka.pid'), 'utf8').trim()), {
      signal: 'SIGTERM',
      graceSeconds: 30,
    });
  let release = guard();
  return {
    brokers: `127.0.0.1:${port}`,
    source: 'local',
    stop: async () => {
      await runScript('stop', env, 60_000);
      release();
      if (runDir) removeRunDir(runDir);
    },
    stopServer: async () => {
      await runScript('stop', { ...env, KAFKA_KEEP_DATA: '1' }, 60_000);
      release();
      release = () => undefined;
    },
    startServer: async () => {
      await runScript('start', env, FIRST_START_TIMEOUT_MS);
      release = guard();
    },
  };
}

// The first start resolves the broker's jars from Maven Central (a minute or more, silent in the
// script): say so, and keep saying that it is still going, so a first `npm run start:distributed`
// does not look hung. Returns the function that ends the reports.
function reportFirstFetch(config: KafkaInfraConfig): () => void {
  const libs = config.kafkaLibsDir;
  const complete = join(libs, `libs-${config.kafkaVersion}`, '.complete');
  if (existsSync(complete)) return () => undefined;
  const t0 = Date.now();
  process.stderr.write(
    `[kafka] first start: fetching the broker's jars from Maven Central into ${libs} (once)...\n`,
  );
  const timer = setInterval(() => {
    const done = existsSync(complete);
    process.stderr.write(
      `[kafka] ${done ? 'jars fetched, starting the broker' : 'still fetching the jars'} (${Math.round((Date.now() - t0) / 1000)} s)\n`,
    );
  }, 10_000);
  timer.unref();
  return () => clearInterval(timer);
}

export function kafkaScriptPath(): string {
  return join(findRepoRoot(), 'deploy', 'local', 'kafka-from-maven.sh');
}

function runScript(command: 'start' | 'stop', env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [kafkaScriptPath(), command],
      { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (err) reject(new Error(`kafka-from-maven.sh ${command} failed: ${err.message}\n${stderr}`));
        else resolve();
      },
    );
  });
}

async function freePortOtherThan(port: number): Promise<number> {
  for (;;) {
    const candidate = await freePort();
    if (candidate !== port) return candidate;
  }
}
