#!/usr/bin/env node
// `npm start` / `npm run start:distributed`: the supervisor. It runs the platform (start-platform.ts)
// as a child in a process group of its own, and turns the terminal's signals into one orderly stop
// of that child. Plain JavaScript on purpose: all it does is wait, and loading the TypeScript hook
// (@swc-node/register) here cost about 90 MB of memory and half a second of start-up for nothing;
// only the child loads it.
//
// Why a child at all: a Ctrl-C signals the terminal's whole foreground process group. The servers the
// platform starts (embedded Postgres, anvil, Kafka, the apps in distributed mode) would get it too and
// die on their own, in no order, while the platform waits on them.
'use strict';
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const { join } = require('node:path');

const PLATFORM = join(__dirname, 'start-platform.ts');
const CHILD_FLAG = 'ONRAMP_LAUNCHER_CHILD'; // start-platform.ts dies with this process when it is set
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
// npm forwards the SIGINT it got from the terminal to us, so one Ctrl-C arrives twice: copies this
// close together are one request. A later one is a second Ctrl-C ("stop now").
const SAME_SIGNAL_MS = 1500;

if (process.platform === 'win32') {
  // no process groups to leave: the platform runs in this process
  require('@swc-node/register');
  require(PLATFORM);
} else {
  const child = spawn(
    process.execPath,
    [...process.execArgv, '-r', '@swc-node/register', PLATFORM, ...process.argv.slice(2)],
    {
      detached: true, // setsid: a new session and process group, away from the terminal's signals
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [CHILD_FLAG]: '1' },
    },
  );
  let firstAt = 0;
  const forward = (signal) => {
    const now = Date.now();
    if (firstAt !== 0 && now - firstAt < SAME_SIGNAL_MS) return;
    firstAt ||= now;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, () => forward(signal));
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
  child.on('error', (err) => {
    process.stderr.write(`[onramp] could not start the platform process: ${err.message}\n`);
    process.exit(1);
  });
}
