// The platform process of `npm start` runs as the child of a supervisor (start.js) that holds the
// terminal. The supervisor gone without a word (kill -9, OOM) is a crash of `npm start`: crash the
// same way (the servers' orphan watchdogs stop them) rather than run on unseen in the background.
export function dieWithSupervisor(env: NodeJS.ProcessEnv): void {
  if (env.ONRAMP_LAUNCHER_CHILD !== '1') return; // run directly, or on Windows (no supervisor)
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  process.channel?.unref();
}
