// A service as main.ts starts one, whose shutdown does what Nest's enableShutdownHooks() does: on
// SIGTERM it closes, then raises the signal again to end the process. Run by run-service.spec.ts.
import { runService } from '../run-service';

runService('fixture', {}, async () => {
  const onSignal = (): void => {
    process.removeListener('SIGTERM', onSignal);
    setTimeout(() => process.kill(process.pid, 'SIGTERM'), 10); // "closed", then the signal again
  };
  process.on('SIGTERM', onSignal);
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000); // keeps running until stopped
});
