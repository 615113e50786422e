#!/usr/bin/env node
'use strict';
// `onramp`, the bin of @onramp/cli: runs the CLI from its TypeScript sources in this repository.
// @swc-node/register compiles them on the fly with the repo's tsconfig (path aliases included), so
// there is no build step; `npm link` in tools/cli puts `onramp` on the PATH, usable from anywhere.
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.json');
require(require.resolve('@swc-node/register', { paths: [root] }));
require('../main.ts');
