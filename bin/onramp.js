#!/usr/bin/env node
'use strict';
// The operator CLI, run from the TypeScript sources: @swc-node/register compiles them on the fly
// with the repo's tsconfig (path aliases included), so there is no build step.
const { join } = require('node:path');

process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(__dirname, '..', 'tsconfig.json');
require('@swc-node/register');
require('../tools/cli/main.ts');
