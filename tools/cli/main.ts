// `onramp`: the operator CLI (bin/onramp.js loads this through @swc-node/register).
import { runCli } from './cli';

void runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  // exitCode rather than exit(): stdout is flushed before the process ends, even when piped
  process.exitCode = code;
});
