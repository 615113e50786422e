// `npm start` / `npm run start:distributed`: the platform runs in a child process with a process group of
// its own (see own-process-group.ts), so that one Ctrl-C means one orderly stop. This file stays light:
// the supervisor must not pay for loading the platform it only supervises.
import { runInOwnProcessGroup } from './own-process-group';

if (runInOwnProcessGroup() === 'platform') void import('./start-platform');
