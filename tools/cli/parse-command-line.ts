import { parseArgs, ParseArgsConfig } from 'node:util';

import { UsageError } from './cli-errors';
import { cliVersion } from './cli-version';
import { didYouMean } from './did-you-mean';
import { COMMANDS, CommandSpec, GLOBAL_OPTIONS, GROUPS, OptionSpec } from './command-table';
import { commandHelp, commandUsage, groupHelp, OVERVIEW_HINT, overviewHelp } from './help';

export interface Settings {
  adminUrl: string;
  baseUrl: string;
  adminKey?: string;
  json: boolean;
}

export type ParsedCommandLine =
  | { kind: 'help'; text: string }
  | {
      kind: 'run';
      command: CommandSpec;
      args: Record<string, string>;
      options: Record<string, string | undefined>;
      settings: Settings;
    };

// parseArgs needs every flag up front to know which take a value; which flags a command accepts is
// checked once the command is known.
function allFlags(): NonNullable<ParseArgsConfig['options']> {
  const flags: NonNullable<ParseArgsConfig['options']> = {};
  for (const spec of [GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options)]) {
    for (const [name, o] of Object.entries(spec)) {
      flags[name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
    }
  }
  return flags;
}

function tokenize(argv: string[]): { values: Record<string, string | boolean>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: allFlags(),
      allowPositionals: true,
      strict: true,
    });
    const flat: Record<string, string | boolean> = {};
    for (const [k, v] of Object.entries(values))
      if (typeof v === 'string' || typeof v === 'boolean') flat[k] = v;
    return { values: flat, positionals };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /Unknown option '([^']+)'/.exec(message); // node's text goes on about '--'
    const flags = Object.keys(allFlags()).map((f) => `--${f}`);
    throw new UsageError(
      unknown ? `unknown option ${unknown[1]}${didYouMean(unknown[1] ?? '', flags)}` : message,
      OVERVIEW_HINT,
    );
  }
}

// Flag, else its env var, else its default. A value is never echoed back: it may be a secret.
function resolveOption(
  name: string,
  spec: OptionSpec,
  values: Record<string, string | boolean>,
  env: NodeJS.ProcessEnv,
  usage: string,
): string | undefined {
  const flag = values[name];
  const fromEnv = spec.env ? env[spec.env] : undefined;
  const value = typeof flag === 'string' ? flag : fromEnv ? fromEnv : spec.fallback;
  if (value === undefined) {
    if (spec.required)
      throw new UsageError(`missing --${name}${spec.env ? ` (or set ${spec.env})` : ''}`, usage);
    return undefined;
  }
  const problem = spec.check?.(value);
  if (problem) throw new UsageError(`--${name} ${problem}`, usage);
  return value;
}

function findCommand(positionals: string[], help: boolean): CommandSpec | { help: string } {
  const [group, sub] = positionals;
  if (group === undefined) {
    if (help) return { help: overviewHelp() };
    throw new UsageError('missing command', OVERVIEW_HINT);
  }
  if (!GROUPS.includes(group))
    throw new UsageError(`unknown command "${group}"${didYouMean(group, GROUPS)}`, OVERVIEW_HINT);
  if (sub === undefined) {
    if (help) return { help: groupHelp(group) };
    throw new UsageError(`missing ${group} command`, groupHelp(group));
  }
  const command = COMMANDS.find((c) => c.name === `${group} ${sub}`);
  if (!command) {
    const subs = COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map((c) =>
      c.name.slice(group.length + 1),
    );
    throw new UsageError(`unknown command "${group} ${sub}"${didYouMean(sub, subs)}`, groupHelp(group));
  }
  return help ? { help: commandHelp(command) } : command;
}

export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): ParsedCommandLine {
  const { values, positionals } = tokenize(argv);
  if (values.version === true) return { kind: 'help', text: `onramp ${cliVersion()}\n` };
  const found = findCommand(positionals, values.help === true);
  if ('help' in found) return { kind: 'help', text: found.help };
  const command = found;
  const usage = commandUsage(command);

  for (const name of Object.keys(values)) {
    if (!(name in GLOBAL_OPTIONS) && !(name in command.options)) {
      throw new UsageError(`--${name} does not apply to "${command.name}"`, usage);
    }
  }
  const given = positionals.slice(2);
  if (given.length < command.args.length) {
    throw new UsageError(`missing <${command.args[given.length].name}>`, usage);
  }
  if (given.length > command.args.length) {
    throw new UsageError(`unexpected argument "${given[command.args.length]}"`, usage);
  }
  const args: Record<string, string> = {};
  command.args.forEach((spec, i) => {
    const problem = spec.check?.(given[i]);
    if (problem) throw new UsageError(`<${spec.name}> ${problem}`, usage);
    args[spec.name] = given[i];
  });

  const options: Record<string, string | undefined> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = resolveOption(name, spec, values, env, usage);
  }
  const global = (name: string) => resolveOption(name, GLOBAL_OPTIONS[name], values, env, usage);
  const settings: Settings = {
    adminUrl: global('admin-url')!.replace(/\/+$/, ''),
    baseUrl: global('base-url')!.replace(/\/+$/, ''),
    adminKey: global('admin-key'),
    json: values.json === true,
  };
  if (command.api === 'admin' && !settings.adminKey) {
    throw new UsageError(
      'no admin API key: set ADMIN_API_KEY (npm start prints it) or pass --admin-key',
      usage,
    );
  }
  return { kind: 'run', command, args, options, settings };
}
