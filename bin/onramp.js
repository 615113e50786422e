#!/usr/bin/env node
'use strict';
// `npx onramp` inside the repository: the bin of @onramp/cli (tools/cli), which runs from source.
require('../tools/cli/bin/onramp.js');
