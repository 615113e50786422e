export type Labels = Record<string, string>;

export interface Sample {
  labels?: Labels;
  value: string | number;
  suffix?: string; // _bucket, _sum, _count of a histogram
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'histogram';
  samples: Sample[];
}

const escapeLabel = (v: string): string => v.replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

function labelText(labels: Labels | undefined): string {
  if (!labels || Object.keys(labels).length === 0) return '';
  return `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',')}}`;
}

// Prometheus text exposition format 0.0.4.
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function formatFamily(m: MetricFamily): string {
  const lines = [
    `# HELP ${m.name} ${m.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
    `# TYPE ${m.name} ${m.type}`,
  ];
  for (const s of m.samples) lines.push(`${m.name}${s.suffix ?? ''}${labelText(s.labels)} ${s.value}`);
  return `${lines.join('\n')}\n`;
}
