// Proof that the type:domain import ban works, checked by every `npm run lint`: each import below
// is banned in a domain lib, and its disable comment is what lets it pass. If the ban stopped
// catching one, the comment would be unused, ESLint would warn ("unused eslint-disable directive")
// and `--max-warnings=0` would fail the lint. Nothing imports this file; it is never built.
/* eslint-disable @typescript-eslint/no-unused-vars */

// eslint-disable-next-line @nx/enforce-module-boundaries
import { Injectable } from '@nestjs/common';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DataSource } from 'typeorm';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { Pool } from 'pg';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { Kafka } from 'kafkajs';
// eslint-disable-next-line no-restricted-imports
import { JsonRpcProvider, Wallet } from 'ethers';
// eslint-disable-next-line no-restricted-imports
import { readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports
import { request } from 'node:http';
// eslint-disable-next-line no-restricted-imports
import { spawn } from 'node:child_process';

// Allowed: pure ethers helpers and node:crypto hashing.
import { getAddress } from 'ethers';
import { createHash } from 'node:crypto';

// The computed spelling, which a text search for the dotted one misses: the rule catches it too. (The
// architecture spec, tools/architecture/env-readers.spec.ts, allows this file and no other non-parser.)
// eslint-disable-next-line no-restricted-properties
const fromEnv = process['env']['ANYTHING'];
