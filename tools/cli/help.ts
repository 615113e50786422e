import { COMMANDS, CommandSpec, GLOBAL_OPTIONS, OptionSpec } from './command-table';

function optionUsage(name: string, spec: OptionSpec): string {
  return spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value ?? 'VALUE'}`;
}

export function synopsis(command: CommandSpec): string {
  const parts = [`onramp ${command.name}`, ...command.args.map((a) => `<${a.name}>`)];
  for (const [name, spec] of Object.entries(command.options)) {
    parts.push(spec.required ? optionUsage(name, spec) : `[${optionUsage(name, spec)}]`);
  }
  return parts.join(' ');
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const extras = [
      spec.required ? 'required' : undefined,
      spec.env ? `env ${spec.env}` : undefined,
      spec.fallback ? `default ${spec.fallback}` : undefined,
    ].filter((x) => x !== undefined);
    const flag = `${spec.short ? `-${spec.short}, ` : ''}${optionUsage(name, spec)}`;
    return [flag, `${spec.description}${extras.length ? ` [${extras.join(', ')}]` : ''}`];
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

const FOOTER = [
  'Exit codes: 0 ok, 1 the API refused (its problem detail is printed), 2 usage error, 3 API unreachable.',
];

export const OVERVIEW_HINT = 'Run "onramp --help" for the list of commands.\n';

// What a usage error of one command shows under its message.
export function commandUsage(command: CommandSpec): string {
  return `Usage: ${synopsis(command)}\nRun "onramp ${command.name} --help" for details.\n`;
}

export function overviewHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'onramp: operator CLI for the on-ramp platform',
    '',
    'Usage: onramp <group> <command> [arguments] [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    ...FOOTER,
    'Run "onramp <group> <command> --help" for the options of one command.',
    '',
  ].join('\n');
}

export function groupHelp(group: string): string {
  const commands = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
  return ['Usage:', ...commands.map((c) => `  ${synopsis(c)}`), '', 'Run with --help for details.', ''].join(
    '\n',
  );
}

export function commandHelp(command: CommandSpec): string {
  const own =
    Object.keys(command.options).length > 0 ? ['Options:', ...optionLines(command.options), ''] : [];
  return [
    `Usage: ${synopsis(command)}`,
    '',
    `${command.summary[0].toUpperCase()}${command.summary.slice(1)}.`,
    '',
    ...own,
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    ...FOOTER,
    '',
  ].join('\n');
}
