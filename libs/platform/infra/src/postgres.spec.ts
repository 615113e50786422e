import { unixSocketDir } from './postgres';

describe('unixSocketDir', () => {
  it('puts the socket in the cluster directory', () => {
    expect(unixSocketDir('/tmp/onramp-runs/1-postgres-abc/data', 5432)).toBe(
      '/tmp/onramp-runs/1-postgres-abc/data',
    );
  });

  it('resolves a relative directory', () => {
    expect(unixSocketDir('data', 5432)).toBe(`${process.cwd()}/data`);
  });

  it('keeps the server on TCP alone when the socket path would be too long', () => {
    expect(unixSocketDir(`/${'d'.repeat(90)}`, 5432)).toBeUndefined();
  });

  it('keeps the server on TCP alone for a directory unix_socket_directories would split', () => {
    expect(unixSocketDir('/tmp/a,b', 5432)).toBeUndefined();
    expect(unixSocketDir('/tmp/a b', 5432)).toBeUndefined();
  });
});
