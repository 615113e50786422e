// The SDK as a merchant gets it: `npm pack` in libs/sdk (its prepack builds dist/), then the tarball
// installed into three scratch projects in a temp dir (ESM JavaScript, CommonJS JavaScript and
// TypeScript with moduleResolution nodenext), each running the README's SDK snippet against a live
// platform. The snippet is taken from README.md (and must equal libs/sdk/README.md's copy).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SDK_DIR = join(ROOT, 'libs', 'sdk');

export interface SdkTarget {
  base: string;
  kyc: string;
  merchantId: string;
  merchantSecret: string;
}

export function extractSdkSnippet(readme: string): string {
  const block = /<!-- sdk-snippet:begin -->\s*```ts\n([\s\S]*?)```\s*<!-- sdk-snippet:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('no <!-- sdk-snippet:begin --> ```ts ... ``` block');
  return block[1];
}

// import { a, b } from 'x';  ->  const { a, b } = require('x');
export function toCommonJs(snippet: string): string {
  return snippet.replace(
    /^import \{([^}]+)\} from '([^']+)';$/gm,
    (_all, names: string, from: string) => `const {${names}} = require('${from}');`,
  );
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string =>
  execFileSync(cmd, args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });

export function trySdkPackage(target: SdkTarget, log: (line: string) => void): void {
  const snippet = extractSdkSnippet(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  if (extractSdkSnippet(readFileSync(join(SDK_DIR, 'README.md'), 'utf8')) !== snippet)
    throw new Error('the SDK snippets of README.md and libs/sdk/README.md differ');
  const dir = mkdtempSync(join(tmpdir(), 'onramp-sdk-'));
  try {
    const t0 = Date.now();
    const packOutput = run('npm', ['pack', '--json', '--pack-destination', dir], SDK_DIR);
    // the prepack build may print before npm's JSON
    const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[/m))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const tarball = join(dir, packed[0]?.filename ?? '');
    log(`packed ${packed[0]?.filename} (${packed[0]?.files.length} files) in ${Date.now() - t0} ms`);
    const env = {
      ...process.env,
      ONRAMP_BASE_URL: target.base,
      ONRAMP_KYC_URL: target.kyc,
      MERCHANT_ID: target.merchantId,
      MERCHANT_SECRET: target.merchantSecret,
    };
    const projects: Array<{ kind: string; type: string; file: string; code: string; compile?: boolean }> = [
      { kind: 'esm', type: 'module', file: 'index.mjs', code: snippet },
      { kind: 'cjs', type: 'commonjs', file: 'index.cjs', code: toCommonJs(snippet) },
      { kind: 'typescript', type: 'module', file: 'index.ts', code: snippet, compile: true },
    ];
    for (const p of projects) {
      const t1 = Date.now();
      const project = join(dir, p.kind);
      mkdirSync(project);
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: `scratch-${p.kind}`, private: true, type: p.type }),
      );
      run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], project);
      writeFileSync(join(project, p.file), p.code);
      let entry = p.file;
      if (p.compile) {
        writeFileSync(
          join(project, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              target: 'ES2022',
              module: 'nodenext',
              moduleResolution: 'nodenext',
              strict: true,
              outDir: 'dist',
              typeRoots: [join(ROOT, 'node_modules', '@types')],
              types: ['node'],
            },
            files: ['index.ts'],
          }),
        );
        run(
          process.execPath,
          [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
          project,
        );
        entry = join('dist', 'index.js');
      }
      const output = run(process.execPath, [entry], project, env);
      if (!/\S+ \S+ RF\d\d/.test(output))
        throw new Error(`${p.kind}: no IBAN, BIC and RF reference printed:\n${output}`);
      log(
        `${p.kind}: installed from the tarball, ran the snippet in ${Date.now() - t1} ms: ${output.trim()}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
