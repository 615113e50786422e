import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// A folder the bank connection (EBICS client, SFTP sync) drops camt files into. A file is taken
// when it is complete: names ending .part/.tmp or starting with a dot are still being written (write
// elsewhere and rename into the folder, or use such a name until done). Afterwards it moves to
// done/ or, with <name>.reason.txt beside it, to failed/.
export class StatementInbox {
  readonly done: string;
  readonly failed: string;

  constructor(readonly dir: string) {
    this.done = join(dir, 'done');
    this.failed = join(dir, 'failed');
    for (const d of [dir, this.done, this.failed]) mkdirSync(d, { recursive: true });
  }

  // Complete files, oldest first (a camt.053 after the camt.054s of the same day).
  pending(): string[] {
    return readdirSync(this.dir)
      .filter((name) => !name.startsWith('.') && !/\.(part|tmp)$/i.test(name))
      .map((name) => join(this.dir, name))
      .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true)
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b));
  }

  read(path: string): string {
    return readFileSync(path, 'utf8');
  }

  markDone(path: string): string {
    return this.move(path, this.done);
  }

  markFailed(path: string, reason: string): string {
    const target = this.move(path, this.failed);
    writeFileSync(`${target}.reason.txt`, `${reason}\n`);
    return target;
  }

  // A file of the same name already there (the bank reuses names daily) keeps its place: the
  // newcomer gets a time suffix. A file another replica moved first is simply gone (ENOENT).
  private move(path: string, folder: string): string {
    let target = join(folder, basename(path));
    if (statSync(target, { throwIfNoEntry: false })) target = `${target}.${Date.now()}`;
    renameSync(path, target);
    return target;
  }
}
