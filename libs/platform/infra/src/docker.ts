import { request } from 'node:http';

import type { DockerConfig } from './config';

let probe: Promise<boolean> | undefined;

// True when a Docker engine answers /_ping within the timeout. A socket file or a CLI alone is
// not enough (this machine has the CLI and no daemon). ONRAMP_DOCKER=0 skips Docker entirely.
export function dockerAvailable(docker: DockerConfig, timeoutMs = 1_500): Promise<boolean> {
  if (docker.setting === 'off') return Promise.resolve(false);
  probe ??= ping(docker.host, timeoutMs);
  return probe;
}

function ping(host: string, timeoutMs: number): Promise<boolean> {
  let target: { socketPath: string } | { host: string; port: number };
  if (host.startsWith('unix://')) {
    target = { socketPath: host.slice('unix://'.length) };
  } else if (host.startsWith('tcp://')) {
    const url = new URL(host.replace('tcp://', 'http://'));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else {
    return Promise.resolve(false); // ssh:// or npipe: let the caller set env vars instead
  }
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
