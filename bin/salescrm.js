#!/usr/bin/env node
// The `salescrm` command: runs the compiled CLI when built (`npm run build`), else the
// TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (existsSync(dist)) {
  await import(pathToFileURL(dist).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
