import { NestFastifyApplication } from '@nestjs/platform-fastify';

// GET /metrics through the app's own HTTP stack, parsed into "name{labels}" -> value.
export async function scrapeMetrics(app: NestFastifyApplication): Promise<Map<string, string>> {
  const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/metrics' });
  if (res.statusCode !== 200) throw new Error(`GET /metrics answered ${res.statusCode}: ${res.body}`);
  if (!String(res.headers['content-type']).startsWith('text/plain; version=0.0.4'))
    throw new Error(`GET /metrics is not Prometheus text: ${String(res.headers['content-type'])}`);
  const samples = new Map<string, string>();
  for (const line of res.body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), line.slice(at + 1));
  }
  return samples;
}
