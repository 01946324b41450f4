#!/usr/bin/env node
// `npx stagedoor <command>`: runs the TypeScript command line through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/server/cli.ts');
