import { readFileSync } from 'node:fs';

/** This package's version, read once from its package.json (the one source: CLI, MCP and HTTP report it). */
export const VERSION: string = ((): string => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
