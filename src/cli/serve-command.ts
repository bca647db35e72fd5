import type { Command } from 'commander';
import { MnemoliteError, openMemory } from '../index.js';
import { isLoopback, parseTokens } from '../http/auth.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, createServer, serverUrl } from '../http/server.js';
import { STRONG_TOKEN_BITS } from '../http/token-strength.js';
import { storeOptions } from './store-options.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';

interface ServeOptions {
  port: number;
  host: string;
  bodyLimit: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  readOnly?: boolean;
  inspector: boolean;
}

function wholeNumber(name: string, min: number, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new MnemoliteError('INVALID_INPUT', `${name} must be a whole number from ${min} to ${max}, got "${v}".`);
    return n;
  };
}

function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return new MnemoliteError('INVALID_INPUT', `Port ${port} on ${host} is already in use. Choose another with --port (0 picks a free one).`);
  if (code === 'EACCES') return new MnemoliteError('INVALID_INPUT', `Not allowed to listen on port ${port}. Use a port above 1023.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new MnemoliteError('INVALID_INPUT', `Cannot listen on ${host}: it is not an address of this machine.`);
  return err as Error;
}

/** Register `mnemolite serve`: the HTTP API and the web inspector. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the JSON HTTP API and the web inspector (loopback only unless a token is set)')
    .option(
      '-p, --port <n>',
      'port to listen on; 0 picks a free one (env MNEMOLITE_PORT)',
      wholeNumber('--port', 0, 65535),
      process.env.MNEMOLITE_PORT ? wholeNumber('MNEMOLITE_PORT', 0, 65535)(process.env.MNEMOLITE_PORT) : 7077,
    )
    .option(
      '--host <host>',
      'address to bind; anything but loopback needs MNEMOLITE_TOKEN or MNEMOLITE_TOKENS (env MNEMOLITE_HOST)',
      process.env.MNEMOLITE_HOST || '127.0.0.1',
    )
    .option('--body-limit <bytes>', 'largest request body in bytes', wholeNumber('--body-limit', 1024, 1024 * 1024 * 1024), DEFAULT_BODY_LIMIT)
    .option(
      '--max-connections <n>',
      'most connections open at once; more are closed as soon as they arrive',
      wholeNumber('--max-connections', 1, 100_000),
      DEFAULT_MAX_CONNECTIONS,
    )
    .option(
      '--max-connections-per-address <n>',
      'most connections open at once from one client address (behind a reverse proxy: as many as --max-connections)',
      wholeNumber('--max-connections-per-address', 1, 100_000),
      DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
    )
    .option('--read-only', 'open the memory file read-only: the API and inspector can look but not change')
    .option('--no-inspector', 'do not serve the web inspector at /')
    .addHelpText(
      'after',
      `
Security:
  Binds to 127.0.0.1 by default and then needs no token (requests must be addressed to localhost).
  MNEMOLITE_TOKEN=<token>                      a bearer token with access to every namespace
  MNEMOLITE_TOKENS='<t1>=agent-1|agent-2,<t2>=team-*,<t3>=*'
                                               tokens limited to namespaces (exact names, prefix*, or *)
  With any token set, every /api route except /api/health needs: Authorization: Bearer <token>.
  Generate a token with: openssl rand -hex 32`,
    )
    .action(async (o: ServeOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<EmbedderFlags & { db: string; json?: boolean }>();
      if (!o.host.trim()) throw new MnemoliteError('INVALID_INPUT', '--host must be an address such as 127.0.0.1, ::1 or 0.0.0.0.');
      // Beyond loopback anyone on the network can guess: only strong tokens there.
      const tokens = parseTokens(process.env, { minBits: isLoopback(o.host) ? 0 : STRONG_TOKEN_BITS });
      if (!isLoopback(o.host) && tokens.length === 0) {
        throw new MnemoliteError(
          'INVALID_INPUT',
          `Refusing to listen on ${o.host} without a token: anyone who can reach it could read and change every memory. Set MNEMOLITE_TOKEN (e.g. export MNEMOLITE_TOKEN=$(openssl rand -hex 32)) or MNEMOLITE_TOKENS, or use --host 127.0.0.1.`,
        );
      }
      const mem = await openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g), ...(o.readOnly ? { readonly: true } : {}) });
      let app: ReturnType<typeof createServer> | undefined;
      try {
        app = createServer({
          memory: mem,
          host: o.host,
          tokens,
          bodyLimit: o.bodyLimit,
          maxConnections: o.maxConnections,
          maxConnectionsPerAddress: o.maxConnectionsPerAddress,
          inspector: o.inspector,
        });
        await app.listen({ port: o.port, host: o.host }).catch((err: unknown) => {
          throw listenError(err, o.host, o.port);
        });
      } catch (err) {
        await app?.close().catch(() => {});
        await mem.close();
        throw err;
      }
      const url = serverUrl(app);
      const limited = tokens.filter((t) => t.namespaces !== '*').length;
      const auth =
        tokens.length === 0
          ? 'no token (loopback only)'
          : `${tokens.length} token${tokens.length === 1 ? '' : 's'}${limited ? `, ${limited} limited to namespaces` : ''}`;
      if (g.json) {
        process.stdout.write(`${JSON.stringify({ listening: url, db: mem.path, auth, semantic: mem.semantic, readOnly: mem.readonly })}\n`);
      } else {
        // One write, so a reader that sees the first line sees them all.
        process.stdout.write(
          `${[
            `mnemolite serve: listening on ${url}`,
            `  store:     ${mem.path}${mem.readonly ? ' (read-only)' : ''}`,
            `  auth:      ${auth}`,
            ...(o.inspector ? [`  inspector: ${url}/`] : []),
            `  API:       ${url}/api  (described at ${url}/openapi.json)`,
            ...(!isLoopback(o.host) ? ['  note:      plain HTTP; put a TLS reverse proxy in front when the network is not trusted'] : []),
          ].join('\n')}\n`,
        );
      }
      // Load the bundled model now rather than on the first request (it takes about a second).
      if (mem.embedder?.provider === 'local') void mem.embedder.embed(['warm up']).catch(() => {});

      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          process.stderr.write('mnemolite serve: shutting down\n');
          app
            .close()
            .catch(() => {})
            .then(() => mem.close())
            .then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
